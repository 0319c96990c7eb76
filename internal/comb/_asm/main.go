// Command _asm generates comb_amd64.s and comb_amd64_stubs.go, the amd64
// kernels of package comb, with avo:
//
//	go run -C _asm . -w 6 -out ../comb_amd64.s -stubs ../comb_amd64_stubs.go -pkg comb
//
// asm.go holds the scalar kernels (the AVX2 table lookup and the fused ADX
// complete additions), avx512.go the eight-lane AVX-512 IFMA comb. Both are
// written as sequences of instructions in Go assembler syntax, which ins
// turns into avo instructions (checked against avo's instruction forms)
// before avo prints them.
package main

import (
	"crypto/elliptic"
	"crypto/sha256"
	"flag"
	"fmt"
	"math/big"
	"os"
	"reflect"
	"strconv"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	avoop "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/mmcloughlin/avo/x86"
)

var width = flag.Int("w", 6, "window width in bits (Booth digits)")

func main() {
	flag.Parse()
	if *width < 2 || *width > 8 {
		fmt.Fprintf(os.Stderr, "window width %d out of range [2, 8]\n", *width)
		os.Exit(2)
	}
	ConstraintExpr("amd64")
	ConstraintExpr("!purego")
	generateAsm(*width)
	Generate()
}

// Curve constants of P-256 (SEC 2 / FIPS 186-5), written out in hexadecimal.
var (
	curveP = hexInt("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
	curveB = hexInt("5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b")
)

func hexInt(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic("bad constant " + s)
	}
	return v
}

// offsetPoint returns T = t·G, the offset point every sum of the comb
// starts from (see ../gen and table.go), t = SHA-256("p256tls comb offset")
// mod n. ../gen computes the same point with its own math/big arithmetic
// for table.go; if the two differed, every scalar with a zero first digit
// in some lane would come out wrong, which the comb's tests would show.
func offsetPoint() (x, y *big.Int) {
	h := sha256.Sum256([]byte("p256tls comb offset"))
	t := new(big.Int).SetBytes(h[:])
	t.Mod(t, elliptic.P256().Params().N)
	return elliptic.P256().ScalarBaseMult(t.FillBytes(make([]byte, 32)))
}

// montLimbs returns v·2^256 mod p as little-endian limbs.
func montLimbs(v *big.Int) [4]uint64 {
	m := new(big.Int).Lsh(v, 256)
	m.Mod(m, curveP)
	var l [4]uint64
	for i := range l {
		l[i] = new(big.Int).Rsh(m, uint(64*i)).Uint64()
	}
	return l
}

// asm emits instructions through avo.
type asm struct{}

// ins emits the instruction op with operands written in Go assembler syntax
// (registers, $immediates, off(REG), name+off(FP), ·sym(SB), labels). The
// instruction is built by avo's constructor of the same name, which refuses
// operand combinations the instruction does not have.
func (a *asm) ins(op string, args ...string) {
	ctor, ok := ctors[op]
	if !ok {
		panic("no avo constructor listed for " + op)
	}
	f := reflect.ValueOf(ctor)
	// Each operand has one reading, except an immediate, which may be
	// given to avo as an 8-, 32- or 64-bit constant: the first width the
	// instruction has a form for is taken.
	cands := make([][]avoop.Op, len(args))
	for i, s := range args {
		cands[i] = parseOperand(op, s)
	}
	var lastErr error
	for pick := make([]int, len(args)); ; {
		ops := make([]reflect.Value, len(args))
		for i := range args {
			ops[i] = reflect.ValueOf(cands[i][pick[i]])
		}
		if !f.Type().IsVariadic() && f.Type().NumIn() != len(ops) {
			panic(fmt.Sprintf("%s takes %d operands, given %v", op, f.Type().NumIn(), args))
		}
		out := f.Call(ops)
		err, _ := out[1].Interface().(error)
		if err == nil {
			Instruction(out[0].Interface().(*ir.Instruction))
			return
		}
		lastErr = err
		// Next combination of immediate widths.
		i := 0
		for ; i < len(args); i++ {
			if pick[i]+1 < len(cands[i]) {
				pick[i]++
				break
			}
			pick[i] = 0
		}
		if i == len(args) {
			panic(fmt.Sprintf("%s %s: %v", op, strings.Join(args, ", "), lastErr))
		}
	}
}

// comment emits a comment line before the next instruction.
func (a *asm) comment(format string, args ...any) { Commentf(format, args...) }

// text starts the function name with the Go signature sig (which avo writes
// to the stubs file) and a local frame of frame bytes at 0(SP).
func (a *asm) text(name, sig string, frame int, doc ...string) {
	TEXT(name, NOSPLIT, sig)
	if len(doc) > 0 {
		Doc(doc...)
	}
	if sig != "func()" {
		Pragma("noescape") // the kernels keep no pointer
	}
	if frame > 0 {
		AllocLocal(frame)
	}
}

// ctors maps the mnemonics the kernels use to avo's constructors.
var ctors = map[string]any{
	"ADCQ": x86.ADCQ, "ADCXQ": x86.ADCXQ, "ADDQ": x86.ADDQ, "ADOXQ": x86.ADOXQ,
	"ANDQ": x86.ANDQ, "CALL": x86.CALL, "CMOVQCS": x86.CMOVQCS, "CMOVQNE": x86.CMOVQNE,
	"DECQ": x86.DECQ, "JNZ": x86.JNZ, "LEAQ": x86.LEAQ, "MOVOU": x86.MOVOU, "MOVQ": x86.MOVQ,
	"MULXQ": x86.MULXQ, "RET": x86.RET, "SBBQ": x86.SBBQ, "SHLQ": x86.SHLQ, "SHRQ": x86.SHRQ,
	"SUBQ": x86.SUBQ, "TESTQ": x86.TESTQ, "XORQ": x86.XORQ,
	"VMOVDQA64": x86.VMOVDQA64, "VMOVDQU": x86.VMOVDQU, "VMOVDQU64": x86.VMOVDQU64,
	"VPADDQ": x86.VPADDQ, "VPAND": x86.VPAND, "VPANDQ": x86.VPANDQ,
	"VPBROADCASTQ": x86.VPBROADCASTQ, "VPCMPEQQ": x86.VPCMPEQQ,
	"VPMADD52HUQ": x86.VPMADD52HUQ, "VPMADD52LUQ": x86.VPMADD52LUQ,
	"VPOR": x86.VPOR, "VPORQ": x86.VPORQ, "VPSLLQ": x86.VPSLLQ, "VPSRAQ": x86.VPSRAQ,
	"VPSRLQ": x86.VPSRLQ, "VPSUBQ": x86.VPSUBQ, "VPTESTMQ": x86.VPTESTMQ,
	"VPTESTNMQ": x86.VPTESTNMQ, "VPUNPCKHQDQ": x86.VPUNPCKHQDQ,
	"VPUNPCKLQDQ": x86.VPUNPCKLQDQ, "VPXOR": x86.VPXOR, "VPXORQ": x86.VPXORQ,
	"VSHUFI64X2": x86.VSHUFI64X2, "VZEROUPPER": x86.VZEROUPPER,
	// Not in the kernels; used by the negative controls of scripts/mutants.
	"KXORW": x86.KXORW, "KXNORW": x86.KXNORW,
}

// registers by their Go assembler names.
var registers = func() map[string]reg.Register {
	m := map[string]reg.Register{}
	for _, r := range []reg.Register{
		reg.RAX, reg.RBX, reg.RCX, reg.RDX, reg.RSI, reg.RDI,
		reg.R8, reg.R9, reg.R10, reg.R11, reg.R12, reg.R13, reg.R14, reg.R15,
	} {
		m[r.Asm()] = r
	}
	xs := []reg.Register{reg.X0, reg.X1, reg.X2, reg.X3, reg.X4, reg.X5, reg.X6, reg.X7,
		reg.X8, reg.X9, reg.X10, reg.X11, reg.X12, reg.X13, reg.X14, reg.X15}
	ys := []reg.Register{reg.Y0, reg.Y1, reg.Y2, reg.Y3, reg.Y4, reg.Y5, reg.Y6, reg.Y7,
		reg.Y8, reg.Y9, reg.Y10, reg.Y11, reg.Y12, reg.Y13, reg.Y14, reg.Y15}
	zs := []reg.Register{reg.Z0, reg.Z1, reg.Z2, reg.Z3, reg.Z4, reg.Z5, reg.Z6, reg.Z7,
		reg.Z8, reg.Z9, reg.Z10, reg.Z11, reg.Z12, reg.Z13, reg.Z14, reg.Z15,
		reg.Z16, reg.Z17, reg.Z18, reg.Z19, reg.Z20, reg.Z21, reg.Z22, reg.Z23,
		reg.Z24, reg.Z25, reg.Z26, reg.Z27, reg.Z28, reg.Z29, reg.Z30, reg.Z31}
	ks := []reg.Register{reg.K0, reg.K1, reg.K2, reg.K3, reg.K4, reg.K5, reg.K6, reg.K7}
	for _, set := range [][]reg.Register{xs, ys, zs, ks} {
		for _, r := range set {
			m[r.Asm()] = r
		}
	}
	return m
}()

// parseOperand reads one operand in Go assembler syntax (register,
// $immediate, off(REG), off(SP), name+off(FP), or the target of CALL ·f(SB)
// and JNZ label): its possible avo operands (more than one only for an
// immediate).
func parseOperand(op, s string) []avoop.Op {
	if r, ok := registers[s]; ok {
		return []avoop.Op{r}
	}
	if op == "CALL" || op == "JNZ" { // a function of this package, or a label
		return []avoop.Op{avoop.LabelRef(s)}
	}
	if strings.HasPrefix(s, "$") {
		return immediate(s[1:])
	}
	if open := strings.IndexByte(s, '('); open >= 0 && strings.HasSuffix(s, ")") {
		base, pre := s[open+1:len(s)-1], s[:open]
		switch base {
		case "FP": // name+off(FP): an argument
			plus := strings.IndexByte(pre, '+')
			off, err := strconv.Atoi(pre[plus+1:])
			if plus < 0 || err != nil {
				panic("bad argument operand " + s)
			}
			return []avoop.Op{avoop.Mem{Symbol: avoop.Symbol{Name: pre[:plus]}, Base: reg.FramePointer, Disp: off}}
		case "SP": // off(SP): the local frame
			return []avoop.Op{avoop.Mem{Base: reg.StackPointer, Disp: disp(pre, s)}}
		}
		r, ok := registers[base]
		if !ok {
			panic("bad base register in " + s)
		}
		return []avoop.Op{avoop.Mem{Base: r, Disp: disp(pre, s)}}
	}
	panic(fmt.Sprintf("%s: cannot read operand %q", op, s))
}

func disp(pre, s string) int {
	if pre == "" {
		return 0
	}
	d, err := strconv.Atoi(pre)
	if err != nil {
		panic("bad displacement in " + s)
	}
	return d
}

// immediate returns the constant s (decimal or 0x hexadecimal, possibly
// negative) as avo constants of the widths that hold it, narrowest first
// (a 64-bit one before an unsigned 32-bit one, which not every instruction
// zero-extends).
func immediate(s string) []avoop.Op {
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		u, uerr := strconv.ParseUint(s, 0, 64)
		if uerr != nil {
			panic("bad immediate $" + s)
		}
		return []avoop.Op{avoop.U64(u)}
	}
	var c []avoop.Op
	if v >= 0 && v <= 255 {
		c = append(c, avoop.U8(uint8(v)))
	}
	if v >= -128 && v <= 127 {
		c = append(c, avoop.I8(int8(v)))
	}
	if v >= -1<<31 && v < 1<<31 {
		c = append(c, avoop.I32(int32(v)))
	}
	if v < 0 {
		c = append(c, avoop.I64(v))
	} else {
		c = append(c, avoop.U64(uint64(v)))
	}
	if v >= 1<<31 && v < 1<<32 {
		c = append(c, avoop.U32(uint32(v)))
	}
	return c
}
