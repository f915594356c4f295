//go:build !purego

#include "textflag.h"
#include "mask_amd64.h"

// One 16-position step of quoteBlocks at offset o from DI: X(dst) gets
// 0xff where t[DI+o+2] is a quote and not (t[DI+o+1] is a backslash and
// t[DI+o] is not). X0 holds the quote in every byte, X1 the backslash.
#define STEP(o, dst, b1, b2) \
	MOVOU	(o+2)(SI)(DI*1), dst \
	PCMPEQB	X0, dst \
	MOVOU	(o+1)(SI)(DI*1), b1 \
	PCMPEQB	X1, b1 \
	MOVOU	o(SI)(DI*1), b2 \
	PCMPEQB	X1, b2 \
	PANDN	b1, b2 \
	PANDN	dst, b2 \
	MOVO	b2, dst

// func quoteBlocks(t []byte) (off int, mask uint64)
TEXT ·quoteBlocks(SB), NOSPLIT, $0-40
	MOVQ	t_base+0(FP), SI
	MOVQ	t_len+8(FP), BX
	MOVQ	$0x2222222222222222, AX
	MOVQ	AX, X0
	PUNPCKLQDQ	X0, X0
	MOVQ	$0x5c5c5c5c5c5c5c5c, AX
	MOVQ	AX, X1
	PUNPCKLQDQ	X1, X1
	XORQ	DI, DI

loop:
	LEAQ	66(DI), DX
	CMPQ	DX, BX
	JGT	none
	STEP(0, X2, X3, X4)
	STEP(16, X5, X6, X7)
	STEP(32, X8, X9, X10)
	STEP(48, X11, X12, X13)
	MOVO	X2, X14
	POR	X5, X14
	POR	X8, X14
	POR	X11, X14
	PMOVMSKB	X14, AX
	TESTL	AX, AX
	JNZ	found
	ADDQ	$64, DI
	JMP	loop

found:
	MASK64(X2, X5, X8, X11)
	MOVQ	DI, off+24(FP)
	MOVQ	AX, mask+32(FP)
	RET

none:
	MOVQ	DI, off+24(FP)
	MOVQ	$0, mask+32(FP)
	RET
