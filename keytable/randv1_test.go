package keytable_test

import mrand1 "math/rand"

type randV1 = mrand1.Rand

func newRandV1(src mrand1.Source) *randV1 { return mrand1.New(src) }
