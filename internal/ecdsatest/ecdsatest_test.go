package ecdsatest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a helper ended the test.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }
func (r *recorder) Skipf(format string, args ...any)  { r.skip = fmt.Sprintf(format, args...) }

// TestUnavailable checks the rule for missing vectors: a failure under
// CI=true, never a silent pass; elsewhere a skip that says how to get them.
func TestUnavailable(t *testing.T) {
	cause := errors.New("proxy unreachable")

	ci := &recorder{TB: t}
	unavailable(ci, true, cause)
	if ci.fatal == "" || ci.skip != "" {
		t.Errorf("with CI=true: fatal %q, skip %q; want a failure", ci.fatal, ci.skip)
	}
	if !strings.Contains(ci.fatal, "proxy unreachable") {
		t.Errorf("the failure does not give the cause: %q", ci.fatal)
	}

	local := &recorder{TB: t}
	unavailable(local, false, cause)
	if local.skip == "" || local.fatal != "" {
		t.Errorf("without CI: fatal %q, skip %q; want a skip", local.fatal, local.skip)
	}
	for _, want := range []string{"go mod download " + WycheproofModule, "proxy unreachable"} {
		if !strings.Contains(local.skip, want) {
			t.Errorf("the skip message %q does not contain %q", local.skip, want)
		}
	}
}

// TestVectorsPresentInCI makes a CI run fail outright when the vectors
// cannot be had, even if no other test asked for them yet.
func TestVectorsPresentInCI(t *testing.T) {
	dir := Dir(t)
	groups := Load(t, "ecdsa_secp256r1_sha256_test.json")
	if len(groups) == 0 {
		t.Fatalf("no test groups in %s", dir)
	}
}

// verifySchemas are the Wycheproof schemas of ECDSA verification files,
// the ones Load reads.
var verifySchemas = map[string]bool{"ecdsa_verify_schema_v1.json": true, "ecdsa_p1363_verify_schema_v1.json": true}

// otherSchemaFiles are files that match a curve's pattern but are not
// ECDSA verification files (another schema), by name, each with the reason
// it is left out. An entry is allowed only for a file whose schema is not
// in verifySchemas (TestFileLists checks it). The module has none today.
var otherSchemaFiles = map[string]string{}

// TestFileLists compares P256Files and P384Files with the module's
// testvectors_v1: every ecdsa_secp256r1_* and ecdsa_secp384r1_* file must be
// listed (or be an otherSchemaFiles entry), every listed file must exist
// and load, with keys on its curve, and the valid vectors of the SHAKE128
// files must pass crypto/ecdsa (the digest Group.Digest gives them).
func TestFileLists(t *testing.T) {
	dir := Dir(t)
	for _, c := range []struct {
		pattern string
		list    []string
		curve   elliptic.Curve
	}{
		{"ecdsa_secp256r1_*", P256Files, elliptic.P256()},
		{"ecdsa_secp384r1_*", P384Files, elliptic.P384()},
	} {
		found, err := filepath.Glob(filepath.Join(dir, c.pattern))
		if err != nil {
			t.Fatal(err)
		}
		if len(found) == 0 {
			t.Fatalf("no %s file in %s", c.pattern, dir)
		}
		listed := map[string]bool{}
		for _, name := range c.list {
			if listed[name] {
				t.Errorf("%s is listed twice", name)
			}
			listed[name] = true
		}
		inDir := map[string]bool{}
		for _, path := range found {
			name := filepath.Base(path)
			inDir[name] = true
			schema := schemaOf(t, path)
			why, excluded := otherSchemaFiles[name]
			switch {
			case excluded && verifySchemas[schema]:
				t.Errorf("%s is excluded (%s) but has the verification schema %q", name, why, schema)
			case excluded && listed[name]:
				t.Errorf("%s is both listed and excluded", name)
			case excluded:
			case !listed[name]:
				t.Errorf("%s (schema %q) is in %s but not in the list for %s", name, schema, dir, c.pattern)
			case !verifySchemas[schema]:
				t.Errorf("%s is listed but has schema %q, which Load does not read", name, schema)
			}
		}
		for _, name := range c.list {
			if !inDir[name] {
				t.Errorf("%s is listed but not in %s", name, dir)
				continue
			}
			groups := Load(t, name)
			if len(groups) == 0 {
				t.Errorf("%s: no test groups", name)
			}
			shake, valid := false, 0
			for _, g := range groups {
				if g.Curve != c.curve {
					t.Fatalf("%s: a group on %s", name, g.Curve.Params().Name)
				}
				if g.Shake128 {
					shake = true
					valid += checkValid(t, name, g)
				}
			}
			if shake && valid == 0 {
				t.Errorf("%s: no valid SHAKE128 vector checked", name)
			}
		}
	}
}

// schemaOf returns the "schema" field of a Wycheproof file.
func schemaOf(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var head struct{ Schema string }
	if err := json.Unmarshal(raw, &head); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return head.Schema
}

// checkValid verifies every valid vector of g with crypto/ecdsa and
// returns their number.
func checkValid(t *testing.T, name string, g Group) int {
	t.Helper()
	if g.Key == nil {
		return 0
	}
	size := (g.Curve.Params().BitSize + 7) / 8
	n := 0
	for _, v := range g.Tests {
		if v.Result != "valid" {
			continue
		}
		sig := v.Sig
		if g.P1363 {
			r, s, ok := SplitP1363(sig, size)
			if !ok {
				t.Fatalf("%s #%d: a valid P1363 signature of %d bytes", name, v.ID, len(sig))
			}
			sig = EncodeDER(new(big.Int).SetBytes(r), new(big.Int).SetBytes(s))
		}
		if !ecdsa.VerifyASN1(g.Key, g.Digest(v.Msg), sig) {
			t.Errorf("%s #%d (%s): crypto/ecdsa refuses a valid vector with Group.Digest", name, v.ID, v.Comment)
		}
		n++
	}
	return n
}
