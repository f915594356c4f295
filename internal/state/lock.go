package state

// Lock takes an exclusive lock on the file name, creating it if needed,
// and waits for it; unlock releases it. Other packages keep their own
// per-session records in this folder under the same kind of lock.
func Lock(name string) (unlock func(), err error) {
	return lock(name)
}
