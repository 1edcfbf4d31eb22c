// Package cnpjtest gives tests valid CNPJ numbers. It is apart from testenv,
// which every package's tests import, so that testenv does not depend on cnpj
// and what cnpj depends on.
package cnpjtest

import "oportuna/cnpj"

// Complete appends the check digits to a 12-character base (8 characters of
// the company, 4 of the branch); a base that has none panics: the test's own
// number is wrong.
func Complete(base string) string {
	d, ok := cnpj.CheckDigits(base)
	if !ok {
		panic("cnpjtest: bad CNPJ base " + base)
	}
	return base + d
}
