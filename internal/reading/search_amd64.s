//go:build !purego

#include "textflag.h"
#include "mask_amd64.h"

// func pairBlocks(t []byte, c1, c2 byte) (off int, mask uint64)
TEXT ·pairBlocks(SB), NOSPLIT, $0-48
	MOVQ	t_base+0(FP), SI
	MOVQ	t_len+8(FP), BX
	// X0 = c1 in all 16 bytes, X1 = c2.
	MOVBQZX	c1+24(FP), AX
	MOVQ	AX, X0
	PUNPCKLBW	X0, X0
	PSHUFLW	$0, X0, X0
	PUNPCKLQDQ	X0, X0
	MOVBQZX	c2+25(FP), AX
	MOVQ	AX, X1
	PUNPCKLBW	X1, X1
	PSHUFLW	$0, X1, X1
	PUNPCKLQDQ	X1, X1
	XORQ	DI, DI

loop:
	// A block at DI reads t[DI : DI+65]. In each 16 positions from DI+k,
	// X(2+k/8) holds 0xff where t[DI+k+i] == c1 and t[DI+k+i+1] == c2.
	LEAQ	65(DI), DX
	CMPQ	DX, BX
	JGT	none
	MOVOU	(SI)(DI*1), X2
	MOVOU	1(SI)(DI*1), X3
	PCMPEQB	X0, X2
	PCMPEQB	X1, X3
	PAND	X3, X2
	MOVOU	16(SI)(DI*1), X4
	MOVOU	17(SI)(DI*1), X5
	PCMPEQB	X0, X4
	PCMPEQB	X1, X5
	PAND	X5, X4
	MOVOU	32(SI)(DI*1), X6
	MOVOU	33(SI)(DI*1), X7
	PCMPEQB	X0, X6
	PCMPEQB	X1, X7
	PAND	X7, X6
	MOVOU	48(SI)(DI*1), X8
	MOVOU	49(SI)(DI*1), X9
	PCMPEQB	X0, X8
	PCMPEQB	X1, X9
	PAND	X9, X8
	// Any position of the 64?
	MOVO	X2, X10
	POR	X4, X10
	POR	X6, X10
	POR	X8, X10
	PMOVMSKB	X10, AX
	TESTL	AX, AX
	JNZ	found
	ADDQ	$64, DI
	JMP	loop

found:
	// One bit a position.
	MASK64(X2, X4, X6, X8)
	MOVQ	DI, off+32(FP)
	MOVQ	AX, mask+40(FP)
	RET

none:
	MOVQ	DI, off+32(FP)
	MOVQ	$0, mask+40(FP)
	RET
