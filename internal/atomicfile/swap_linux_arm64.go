package atomicfile

import "syscall"

// sysRenameat2 is renameat2's number.
const sysRenameat2 = syscall.SYS_RENAMEAT2
