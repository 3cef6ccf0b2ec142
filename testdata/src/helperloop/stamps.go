package helperloop

func stampAll(key []byte, msgs [][]byte) [][]byte {
	s := scram{mechanism: 256}
	var out [][]byte
	for _, m := range msgs {
		st, _ := s.stamp(key, m)
		out = append(out, st)
	}
	return out
}

func CaseStampAll() { sigs = stampAll([]byte("key"), items) }
