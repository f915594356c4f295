package cli

// stackRoom is how much stack the main goroutine is given at once, before
// any work: see GrowStack. Measured in page faults over a quiet hook call
// once its JSON decoding had left the common path: 36 with no growing, 28
// with 8 KB, 32 with 32 KB (every page of room is a fault of its own).
const stackRoom = 8 << 10

// GrowStack, called first thing in main, makes the main goroutine's stack large enough for the whole
// call in one step, while it is still shallow. A goroutine starts with a
// small stack that the runtime doubles when a call needs more; each
// doubling copies the stack and walks every frame on it through the
// binary's tables, and a hook call's JSON decoding, deep down, grew it
// several times: 8% of the hook's CPU time went to it, and the walks
// touched pages of the tables that nothing else reads. Growing it here
// costs one copy of a few frames. The stack is not shrunk again until a
// garbage collection, which a hook call does not reach.
//
//go:noinline
func GrowStack() byte {
	var room [stackRoom]byte
	return sink(room[:])
}

//go:noinline
func sink(b []byte) byte { return b[len(b)-1] }
