package atomicfile

// sysRenameat2 is renameat2's number (package syscall does not name it
// here).
const sysRenameat2 = 316
