//go:build unix

package artifact

import (
	"archive/zip"
	"bufio"
	"compress/flate"
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// writeSourceLikeZip writes a deflated zip of text files made of random
// identifiers (about 3:1 compression, like a source tree) until the zip
// reaches size bytes, and returns the uncompressed total.
func writeSourceLikeZip(tb testing.TB, path string, size int64) int64 {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	cw := &countWriter{w: bufio.NewWriterSize(f, 1<<20)}
	zw := zip.NewWriter(cw)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	rng := rand.New(rand.NewSource(42))
	vocab := make([]string, 4096)
	for i := range vocab {
		b := make([]byte, 3+rng.Intn(9))
		for j := range b {
			b[j] = byte('a' + rng.Intn(26))
		}
		vocab[i] = string(b)
	}
	var total int64
	line := make([]byte, 0, 128)
	for i := 0; cw.n < size; i++ {
		w, err := zw.Create(fmt.Sprintf("proj/pkg%03d/file%04d.go", i%97, i))
		if err != nil {
			tb.Fatal(err)
		}
		for written := 0; written < 1<<20; {
			line = line[:0]
			for k := 0; k < 8; k++ {
				line = append(line, vocab[rng.Intn(len(vocab))]...)
				line = append(line, ' ')
			}
			line = append(line, '\n')
			w.Write(line)
			written += len(line)
		}
		total += 1 << 20
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := cw.w.(*bufio.Writer).Flush(); err != nil {
		tb.Fatal(err)
	}
	return total
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// BenchmarkVerify100MiB measures verification throughput over a 100 MiB zip
// on disk; MB/s counts the zip's bytes, uMB/s the inflated bytes, MB/cpu-s
// the zip's bytes per CPU-second (stable on a shared machine). The stdlib
// case reads every entry with archive/zip (which checks CRCs too) in the
// same run, as the yardstick: Verify does that plus the directory, layout,
// name and hash checks.
func BenchmarkVerify100MiB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.zip")
	uncompressed := writeSourceLikeZip(b, path, benchZipSize)
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	run := func(b *testing.B, once func() error) {
		b.SetBytes(st.Size())
		cpu0 := cpuSeconds()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := once(); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		b.ReportMetric(float64(uncompressed)/1e6/(b.Elapsed().Seconds()/float64(b.N)), "uMB/s")
		b.ReportMetric(float64(st.Size())*float64(b.N)/1e6/(cpuSeconds()-cpu0), "MB/cpu-s")
	}
	b.Run("ferry-verify", func(b *testing.B) {
		run(b, func() error {
			v, err := Verify(context.Background(), f, st.Size())
			if err == nil && !v.OK {
				err = fmt.Errorf("not ok: %v", v.Problems)
			}
			return err
		})
	})
	b.Run("stdlib-read-all", func(b *testing.B) {
		buf := make([]byte, 256<<10)
		run(b, func() error {
			zr, err := zip.NewReader(f, st.Size())
			if err != nil {
				return err
			}
			for _, zf := range zr.File {
				rc, err := zf.Open()
				if err != nil {
					return err
				}
				_, err = io.CopyBuffer(io.Discard, rc, buf)
				rc.Close()
				if err != nil {
					return err
				}
			}
			return nil
		})
	})
}

var benchZipSize int64 = 100 << 20

func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
