package provider

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log"
	"os"
	"time"
)

// File-backed identities: loading them, reloading them by hand (Reload) and
// watching their files (Watch).

// Files names a PEM certificate chain file and its private key file (they
// may be the same file).
type Files struct {
	CertFile string
	KeyFile  string
}

// slot is one position of the set: a static identity, or a pair of files
// with the last identity successfully loaded from them.
type slot struct {
	files  Files // zero for static identities
	id     *Identity
	digest [32]byte    // of the file contents id was built from
	seen   [2]fileMark // the files as last examined by Reload or Watch
}

// fileMark is what the watcher compares to notice that a file changed.
type fileMark struct {
	info os.FileInfo // nil if the file could not be examined
}

func markFile(path string) fileMark {
	fi, err := os.Stat(path)
	if err != nil {
		return fileMark{}
	}
	return fileMark{info: fi}
}

func (m fileMark) same(o fileMark) bool {
	if m.info == nil || o.info == nil {
		return m.info == nil && o.info == nil
	}
	return os.SameFile(m.info, o.info) && m.info.ModTime().Equal(o.info.ModTime()) && m.info.Size() == o.info.Size()
}

// LoadIdentities loads one identity from each pair of files (see
// LoadIdentity), the first being the default. It fails if any pair fails
// (the error lists every failed pair) or if no files are given.
func LoadIdentities(files ...Files) (*Identities, error) {
	if len(files) == 0 {
		return nil, errors.New("provider: LoadIdentities: no files given")
	}
	s := &Identities{}
	var errs []error
	for _, f := range files {
		sl := &slot{files: f}
		if _, err := sl.load(); err != nil {
			errs = append(errs, err)
			continue
		}
		s.slots = append(s.slots, sl)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	s.publish()
	return s, nil
}

// load (re)reads the slot's files. It leaves the slot unchanged on error,
// and also when the files hold exactly what the current identity was built
// from (no table is rebuilt, counters continue).
func (sl *slot) load() (changed bool, err error) {
	sl.seen = [2]fileMark{markFile(sl.files.CertFile), markFile(sl.files.KeyFile)}
	certPEM, err := os.ReadFile(sl.files.CertFile)
	if err != nil {
		return false, &FileError{Path: sl.files.CertFile, Kind: "certificate", Err: err}
	}
	keyPEM, err := os.ReadFile(sl.files.KeyFile)
	if err != nil {
		return false, &FileError{Path: sl.files.KeyFile, Kind: "private key", Err: err}
	}
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(certPEM)))
	h.Write(n[:])
	h.Write(certPEM)
	h.Write(keyPEM)
	var digest [32]byte
	h.Sum(digest[:0])
	if sl.id != nil && digest == sl.digest {
		return false, nil
	}
	id, err := identityFromPEM(certPEM, keyPEM, sl.files.CertFile, sl.files.KeyFile)
	if err != nil {
		return false, err
	}
	sl.id, sl.digest = id, digest
	return true, nil
}

// Reload re-reads every file-backed identity and swaps in the new set. A
// pair whose files fail to load keeps its previous identity, and the error
// (one per failed pair, joined) is returned; the other pairs are still
// updated. Unchanged files are not reloaded.
func (s *Identities) Reload() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reloadLocked(func(*slot) bool { return true })
}

func (s *Identities) reloadLocked(want func(*slot) bool) error {
	var errs []error
	changed := false
	for _, sl := range s.slots {
		if sl.files == (Files{}) || !want(sl) {
			continue
		}
		c, err := sl.load()
		if err != nil {
			errs = append(errs, fmt.Errorf("%w (keeping the previous identity, %v)", err, sl.id))
		}
		changed = changed || c
	}
	if changed {
		s.publish()
	}
	return errors.Join(errs...)
}

// Watch polls the modification times (and sizes and identities) of the
// files every interval, 10 s if interval <= 0, and reloads a pair when one
// of its files has changed, until ctx is done; it then returns ctx.Err().
// Run it in its own goroutine. When a changed file does not load (a bad file,
// a certificate whose key has not been written yet), the previous identity
// stays in service and onError is called with the error (log.Printf when
// onError is nil); the pair is tried again at its next change.
func (s *Identities) Watch(ctx context.Context, interval time.Duration, onError func(error)) error {
	if interval <= 0 {
		interval = 10 * time.Second
	}
	if onError == nil {
		onError = func(err error) { log.Printf("%v", err) }
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		s.mu.Lock()
		err := s.reloadLocked(func(sl *slot) bool {
			return !sl.seen[0].same(markFile(sl.files.CertFile)) || !sl.seen[1].same(markFile(sl.files.KeyFile))
		})
		s.mu.Unlock()
		if err != nil {
			onError(err)
		}
	}
}
