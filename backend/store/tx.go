package store

import (
	"bytes"
	"errors"
	"fmt"

	badger "github.com/dgraph-io/badger/v4"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Tx is a transaction given to Update (read-write) or View (read-only). It is
// valid only inside that call and must not be used from other goroutines.
type Tx struct {
	txn *badger.Txn
	// size and entries add up what the transaction will write, for the
	// free-space check before its commit.
	size, entries int
}

// Get returns a copy of the value of key, or ErrNotFound.
func (tx *Tx) Get(key []byte) ([]byte, error) {
	if len(key) == 0 {
		return nil, ErrEmptyKey
	}
	item, err := tx.txn.Get(key)
	if err != nil {
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("get %s: %w", keyText(key), err)
	}
	val, err := readValue(item)
	if err != nil {
		return nil, valueError(key, err)
	}
	return val, nil
}

// Has reports whether key is present.
func (tx *Tx) Has(key []byte) (bool, error) {
	_, err := tx.txn.Get(key)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, badger.ErrKeyNotFound):
		return false, nil
	}
	return false, fmt.Errorf("get %s: %w", keyText(key), err)
}

// Put stores val under key when the transaction commits. Key and val are
// copied, so the caller may reuse them. Errors: ErrEmptyKey,
// ErrValueTooLarge, ErrTxnTooBig (split the transaction).
func (tx *Tx) Put(key, val []byte) error {
	if len(key) == 0 {
		return ErrEmptyKey
	}
	if len(val) > MaxValueSize {
		return fmt.Errorf("put %s: %d bytes, limit %d: %w", keyText(key), len(val), MaxValueSize, ErrValueTooLarge)
	}
	k := bytes.Clone(key)
	v := bytes.Clone(val)
	if v == nil {
		v = []byte{}
	}
	if err := tx.txn.Set(k, v); err != nil {
		return fmt.Errorf("put %s: %w", keyText(key), err)
	}
	tx.size, tx.entries = tx.size+len(k)+len(v), tx.entries+1
	return nil
}

// Delete removes key when the transaction commits; an absent key is fine.
func (tx *Tx) Delete(key []byte) error {
	if len(key) == 0 {
		return ErrEmptyKey
	}
	if err := tx.txn.Delete(bytes.Clone(key)); err != nil {
		return fmt.Errorf("delete %s: %w", keyText(key), err)
	}
	tx.size, tx.entries = tx.size+len(key), tx.entries+1
	return nil
}

// Scan calls fn for every key with prefix in ascending order, with copies of
// key and value, seeing this transaction's own writes. An error from fn
// stops the scan and is returned unchanged.
func (tx *Tx) Scan(prefix []byte, fn func(key, val []byte) error) error {
	return tx.scan(prefix, false, fn)
}

// ScanReverse is Scan in descending key order.
func (tx *Tx) ScanReverse(prefix []byte, fn func(key, val []byte) error) error {
	return tx.scan(prefix, true, fn)
}

func (tx *Tx) scan(prefix []byte, reverse bool, fn func(key, val []byte) error) error {
	opts := badger.DefaultIteratorOptions
	if !reverse {
		// Prefix lets badger skip tables; a reverse scan starts from a key
		// just past the prefix, which that filter would stop at.
		opts.Prefix = prefix
	}
	opts.Reverse = reverse
	opts.PrefetchSize = 64
	it := tx.txn.NewIterator(opts)
	defer it.Close()
	start := prefix
	if reverse {
		start = prefixEnd(prefix)
	}
	if start == nil {
		it.Rewind()
	} else {
		it.Seek(start)
		if reverse && it.Valid() && !bytes.HasPrefix(it.Item().Key(), prefix) {
			it.Next() // landed on prefixEnd itself, which lies past the prefix
		}
	}
	for ; it.ValidForPrefix(prefix); it.Next() {
		item := it.Item()
		key := item.KeyCopy(nil)
		val, err := readValue(item)
		if err != nil {
			return valueError(key, err)
		}
		if err := fn(key, val); err != nil {
			return err
		}
	}
	return nil
}

// errValueUnreadable: badger read nothing for a value it says is there.
var errValueUnreadable = errors.New("the value log entry fails its checksum or cannot be read")

// readValue is a copy of item's value. badger does not return an error
// when a value in the value log fails its checksum: it logs it and yields
// an empty value. Values in the value log are never empty (they are above
// the value threshold), so an empty copy of a value badger sizes above
// zero is that failure.
func readValue(item *badger.Item) ([]byte, error) {
	val, err := item.ValueCopy(nil)
	if err != nil {
		return nil, err
	}
	if len(val) == 0 && item.ValueSize() > 0 {
		return nil, errValueUnreadable
	}
	return val, nil
}

// valueError is a value that cannot be read back: with value checksums
// verified, a damaged value-log entry. Errors: errs.StoreCorrupt naming the
// key.
func valueError(key []byte, err error) error {
	return errs.Wrap(err, errs.StoreCorrupt, "read value of %s: %v", keyText(key), err).
		WithEvidence("key", keyText(key)).
		WithHint(corruptHint)
}

// prefixEnd is the smallest key greater than every key with prefix, or nil
// when there is none (an empty prefix or all 0xff), for reverse seeks.
// badger's reverse Seek lands on the largest key <= the seek key.
func prefixEnd(prefix []byte) []byte {
	end := bytes.Clone(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// keyText shows a key in messages: printable keys as is, binary parts
// escaped, long keys cut.
func keyText(key []byte) string {
	const max = 80
	s := fmt.Sprintf("%q", key)
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
