package auth

import "testing"

func TestCheckPassword(t *testing.T) {
	for _, ok := range []string{"Oportuna@2026", "aB3$aaaa", "Zz9!Zz9!Zz9!"} {
		if err := CheckPassword(ok); err != nil {
			t.Errorf("%q rejected", ok)
		}
	}
	for _, bad := range []string{"", "aB3$aaa", "ab3$aaaa", "AB3$AAAA", "aBc$aaaa", "aB3aaaaa", "aB3#aaaa", "aB3$aaaa ", "aB3$aaãa"} {
		if err := CheckPassword(bad); err != ErrWeakPassword {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestHashAndVerify(t *testing.T) {
	h, err := HashPassword("Oportuna@2026")
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := HashPassword("Oportuna@2026")
	if h == h2 {
		t.Error("two hashes of one password are equal: no salt")
	}
	if !VerifyPassword(h, "Oportuna@2026") || VerifyPassword(h, "Oportuna@2027") {
		t.Error("verify is wrong")
	}
	for _, bad := range []string{"", "$argon2id$", "$bcrypt$v=19$m=1,t=1,p=1$AAAA$AAAA", h[:len(h)-3] + "!!!"} {
		if VerifyPassword(bad, "Oportuna@2026") {
			t.Errorf("malformed hash %q verified", bad)
		}
	}
}

func BenchmarkVerifyPassword(b *testing.B) {
	h, _ := HashPassword("Oportuna@2026")
	for b.Loop() {
		VerifyPassword(h, "Oportuna@2026")
	}
}
