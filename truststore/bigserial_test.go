package truststore

import "math/big"

func bigSerial(n int64) *big.Int { return big.NewInt(n) }
