package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/hex"
	"testing"

	"github.com/p256tls/p256tls/keytable"
	"github.com/p256tls/p256tls/verify"
)

// The guard's verification benchmarks: the calls of keytable's
// BenchmarkVerify and BenchmarkVerifyP384, on fixed inputs. Those draw a
// new key and signature in every process, and the variable-time paths'
// cost moves with them (table verification of one P-256 signature by
// ±3.5% from one key to the next, more than the 2% the guard watches), so
// the guard counts these instead: a fixed key per curve and eight fixed
// signatures (of eight digests), verified in turn, so that any run of a
// multiple of eight iterations costs the same and is an average over eight
// signatures rather than one.

// guardInput is a fixed key with its digests and signatures.
type guardInput struct {
	key     *ecdsa.PublicKey
	digests [][]byte
	sigs    [][]byte
}

// newGuardInput returns the inputs of curve c: private key bytes
// 11 22 33 ... (repeating), digest i of the key's size with byte j equal to
// 31i + 7j + 1, and the signatures below, made once by crypto/ecdsa.
func newGuardInput(tb testing.TB, c elliptic.Curve, sigs []string) guardInput {
	size := (c.Params().BitSize + 7) / 8
	d := make([]byte, size)
	for i := range d {
		d[i] = byte(0x11 * (i%15 + 1))
	}
	k, err := ecdsa.ParseRawPrivateKey(c, d)
	if err != nil {
		tb.Fatal(err)
	}
	in := guardInput{key: &k.PublicKey}
	for i, s := range sigs {
		digest := make([]byte, size)
		for j := range digest {
			digest[j] = byte(i*31 + j*7 + 1)
		}
		sig, err := hex.DecodeString(s)
		if err != nil {
			tb.Fatal(err)
		}
		in.digests = append(in.digests, digest)
		in.sigs = append(in.sigs, sig)
	}
	return in
}

var sigsP256 = []string{
	"304502201c8c321e75dd8644fc41b82d41617a800a05ec3eb691f2cd27c9156da2c9e04b022100ab0ea6e018e5171bb393c125690ce2ee3494a225035fb5d18f55b5387d572076",
	"3044022023e689809a4e2aceb11e3eae815d6c3723b65157e189bfed268d3aaa9db8eb0f02203810ee2f1c20a780598072390d70cf3825acd145663a30c39770db1ca268a01d",
	"3046022100af7bfc0f52a173f7fc44cd918777cb6d690c4bab10ee4ae7beb761c0d0ce59e0022100c6bd9b311265611f79e7b5d6e7a2a6b5ebb12b929c725d6f8f7b5013e5b0480c",
	"3045022022eb48b120c6c7a6a621cdb66601c7c22f5e612f9fec3e2681000b2eb4b4c50d0221008599d9076b5c64e63846ecceacdc49785bf385955f59e9e19753a6f3078210a5",
	"3046022100c7db10093285cf5ab7bce8d37799ea184735e6da94a3afda9604f8142fcb960d022100ac7c4832da254d8991583a2a2e870601615c4d3f0606619b984d8981619d29a8",
	"30460221009f097b01081dbad5c89d4d910ac1731135f8b7b2c47a3b01f373e7b100b21b28022100bcc0b13c080e458b54c2016d7d983e52d99da8839dc3784f37a740000c4193db",
	"30460221009fd73742caaf353bec047b2718fddd1ad8c880043e5f80ebfcbd2b94b519c50a022100b2de38c9987235210f4b25edf3a7a4663ba65c413168899646f3fd9305f6a96e",
	"3046022100b28d71d8ab4fb8c637776e7a5aade6bb59299a348257c9017375f872e051a24f022100ae91465817d743d5f9a602300352d6f03f0b84170e35e0d456e2087fcae0c8df",
}

var sigsP384 = []string{
	"30660231008edcb07aaf43617f62a40e5d3f61c836014a5e3b0be9fc7a08ba88d020a94d0e30b6976d516c490ac9a23284a5cda6be023100cb80f6fbff813bbf89eb40e3f93390b1e9ef87f4a09805edb1721885ade6a4df741a4c8e4622d7803ffd67339790cff6",
	"306502305b95b9fbdcbfabbdf01434ca6c12eeb06df9fd1d140766003a98e99f258cb1960e7c0f21f2ff3949d2c69e27c622a963023100a29f699db4adc993088b1f36cf4abe0e6e09ba89ba9f005e43bc033f7cf220996d75072f26e1306f424c412d6354cad6",
	"3065023100df0e66b8e39152f6a5bc4fcae9a04224200f54c159e402a285fa74f6a27d49c70b0382d3ad676077f6d2266c3a4350250230014c9e0dfbd2dec3c6d19295238d353fbe0d183fb61e546abf27394b4a83826829511c163b1d1bdaa4ed274e86261ebf",
	"3065023100d3cdfb05bfc027b298ab12082df84875aec5622a6d905f94967797ad2ec76112d55c7c15ad242e75ce5ef034cc76b66f02307cdc8eede8102576328b3c5aa10bb42d9728ca5801a221a016ab81f7c085b7841487672b315c538500fbd4192b92ff88",
	"3064023054ed5c4569f47a3be0ed9e3304c7521643bf845ba015a57a9a04f489eb3fe9c3c529a2093e042054e4b86acca84e4aeb02303b1e81d5138610d9934940c917c41dac143715c5d80595e0d1c6ce068f93af992de93d829b96bdc5a9f489212796fb00",
	"306402301975c70293429c6fc249963ea9ca8db02b34bbdfd9ce8841e2fdd29957e4a719011026f864a71b60f04b29c51cd98c68023010cb57e11b46bdde4d438d19b4d74de5951ef483fe2968edd1419584460442455363c7fbbe7cf97ccacf729fd8c3412d",
	"306502310095380aad82f7d6df2ac98ec6acdde28d070f6ff81c047b559fb76b87545084a02a4a33faddf26bbfd9e1b0fbd4cfe46a023037d2a10a26a7f78c7f4c2990f86312bdf3548db2475194d64d0136fc943235a388c8331f1d0309f6f0b3b930fb71c600",
	"3065023100fb1d53eef119799cb08ac47756dbbdbd8720deef3705ad5e9909f364ef08858e995f66a5da6c77efc36b201209b5222802307c65c40c971a5e496480771b684b2eae396ff3602f4ed42834e4b1c4e5c4f78c0af0168ffc445e2ab6288d271aaf4aac",
}

// verifyBench runs the three paths of one curve, crypto/ecdsa first.
func verifyBench(b *testing.B, c elliptic.Curve, sigs []string) {
	in := newGuardInput(b, c, sigs)
	tab, err := keytable.New(in.key)
	if err != nil {
		b.Fatal(err)
	}
	paths := []struct {
		name   string
		verify func(digest, sig []byte) bool
	}{
		{"stdlib", func(d, s []byte) bool { return ecdsa.VerifyASN1(in.key, d, s) }},
		{"table", tab.VerifyASN1},
		{"ordinary", func(d, s []byte) bool { return verify.VerifyASN1(in.key, d, s) }},
	}
	for _, p := range paths {
		b.Run(p.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				k := i % len(in.sigs)
				if !p.verify(in.digests[k], in.sigs[k]) {
					b.Fatalf("signature %d rejected", k)
				}
			}
		})
	}
}

func BenchmarkGuardVerifyP256(b *testing.B) { verifyBench(b, elliptic.P256(), sigsP256) }
func BenchmarkGuardVerifyP384(b *testing.B) { verifyBench(b, elliptic.P384(), sigsP384) }

// TestGuardInputs: every fixed signature verifies on every path, and a
// changed digest does not (the benchmarks measure real verifications).
func TestGuardInputs(t *testing.T) {
	for _, c := range []struct {
		curve elliptic.Curve
		sigs  []string
	}{{elliptic.P256(), sigsP256}, {elliptic.P384(), sigsP384}} {
		in := newGuardInput(t, c.curve, c.sigs)
		tab, err := keytable.New(in.key)
		if err != nil {
			t.Fatal(err)
		}
		for i := range in.sigs {
			d, s := in.digests[i], in.sigs[i]
			if !ecdsa.VerifyASN1(in.key, d, s) || !tab.VerifyASN1(d, s) || !verify.VerifyASN1(in.key, d, s) {
				t.Errorf("%s signature %d rejected", c.curve.Params().Name, i)
			}
			bad := append([]byte(nil), d...)
			bad[0] ^= 1
			if tab.VerifyASN1(bad, s) || verify.VerifyASN1(in.key, bad, s) {
				t.Errorf("%s signature %d accepted for another digest", c.curve.Params().Name, i)
			}
		}
	}
}
