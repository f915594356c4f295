// MASK64 gathers the byte masks of four 16-byte registers, the first
// lowest, into one 64-bit mask in AX (DX is clobbered): one bit a
// position of a 64-position round.
#define MASK64(r0, r1, r2, r3) \
	PMOVMSKB	r0, AX \
	PMOVMSKB	r1, DX \
	SHLQ	$16, DX \
	ORQ	DX, AX \
	PMOVMSKB	r2, DX \
	SHLQ	$32, DX \
	ORQ	DX, AX \
	PMOVMSKB	r3, DX \
	SHLQ	$48, DX \
	ORQ	DX, AX
