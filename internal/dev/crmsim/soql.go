package crmsim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The stand-in understands the SOQL the client sends, and a little more for a
// person exploring it: SELECT fields (relationship paths such as
// Product2.ProductCode) FROM one object, WHERE conditions joined by AND
// (=, !=, <>, <, <=, >, >=, LIKE, IN, NOT IN), ORDER BY, LIMIT and OFFSET.

// sfError is a refusal answered as Salesforce's error array.
type sfError struct {
	status int
	code   string
	msg    string
}

func (e *sfError) Error() string { return e.code + ": " + e.msg }

func malformed(format string, args ...any) *sfError {
	return &sfError{400, "MALFORMED_QUERY", fmt.Sprintf(format, args...)}
}

type soqlQuery struct {
	fields []string
	object string
	where  []condition
	order  []orderKey
	limit  int // -1: none
	offset int
}

type condition struct {
	field  string
	op     string // =, !=, <, <=, >, >=, LIKE, IN, NOT IN
	values []any  // string, float64, bool or nil
}

type orderKey struct {
	field      string
	desc       bool
	nullsFirst bool
}

// --- lexer ----------------------------------------------------------------------

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tString
	tBare // a number or a date literal
	tPunct
)

type token struct {
	kind tokKind
	text string
}

func lex(q string) ([]token, error) {
	var out []token
	i := 0
	for i < len(q) {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'':
			var b strings.Builder
			i++
			closed := false
			for i < len(q) {
				if q[i] == '\\' && i+1 < len(q) {
					switch e := q[i+1]; e {
					case 'n':
						b.WriteByte('\n')
					case 'r':
						b.WriteByte('\r')
					case 't':
						b.WriteByte('\t')
					case 'b':
						b.WriteByte('\b')
					case 'f':
						b.WriteByte('\f')
					case '\'', '"', '\\', '_', '%':
						if e == '_' || e == '%' {
							b.WriteByte('\\') // kept for LIKE
						}
						b.WriteByte(e)
					default:
						return nil, malformed("invalid escape sequence \\%c", e)
					}
					i += 2
					continue
				}
				if q[i] == '\'' {
					closed = true
					i++
					break
				}
				b.WriteByte(q[i])
				i++
			}
			if !closed {
				return nil, malformed("unterminated string literal")
			}
			out = append(out, token{tString, b.String()})
		case isIdentStart(c):
			j := i
			for j < len(q) && (isIdentStart(q[j]) || isDigit(q[j]) || q[j] == '.') {
				j++
			}
			out = append(out, token{tIdent, q[i:j]})
			i = j
		case isDigit(c) || (c == '-' && i+1 < len(q) && isDigit(q[i+1])):
			j := i + 1
			for j < len(q) && (isDigit(q[j]) || isIdentStart(q[j]) || strings.IndexByte(".:+-", q[j]) >= 0) {
				j++
			}
			out = append(out, token{tBare, q[i:j]})
			i = j
		case c == '!' || c == '<' || c == '>':
			if i+1 < len(q) && (q[i+1] == '=' || (c == '<' && q[i+1] == '>')) {
				out = append(out, token{tPunct, q[i : i+2]})
				i += 2
			} else if c == '!' {
				return nil, malformed("unexpected token '!'")
			} else {
				out = append(out, token{tPunct, q[i : i+1]})
				i++
			}
		case c == '(' || c == ')' || c == ',' || c == '=':
			out = append(out, token{tPunct, q[i : i+1]})
			i++
		default:
			return nil, malformed("unexpected character %q", c)
		}
	}
	return append(out, token{kind: tEOF}), nil
}

func isIdentStart(c byte) bool { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }

// --- parser ---------------------------------------------------------------------

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) keyword(kw string) bool {
	if t := p.peek(); t.kind == tIdent && strings.EqualFold(t.text, kw) {
		p.i++
		return true
	}
	return false
}

func (p *parser) ident(what string) (string, error) {
	t := p.next()
	if t.kind != tIdent {
		return "", malformed("expected %s, found %q", what, t.text)
	}
	return t.text, nil
}

var (
	numberRE = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)
	dateRE   = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9:.]+(Z|[+-][0-9:]+))?$`)
)

func (p *parser) literal() (any, error) {
	t := p.next()
	switch t.kind {
	case tString:
		return t.text, nil
	case tBare:
		if numberRE.MatchString(t.text) {
			return strconv.ParseFloat(t.text, 64)
		}
		if dateRE.MatchString(t.text) {
			return t.text, nil
		}
	case tIdent:
		switch strings.ToLower(t.text) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		case "null":
			return nil, nil
		}
	}
	return nil, malformed("unexpected token: %q", t.text)
}

func parseSOQL(q string) (*soqlQuery, error) {
	toks, err := lex(q)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	out := &soqlQuery{limit: -1}
	if !p.keyword("SELECT") {
		return nil, malformed("a query starts with SELECT")
	}
	for {
		f, err := p.ident("a field")
		if err != nil {
			return nil, err
		}
		out.fields = append(out.fields, f)
		if t := p.peek(); t.kind == tPunct && t.text == "," {
			p.next()
			continue
		}
		break
	}
	if !p.keyword("FROM") {
		return nil, malformed("expected FROM, found %q", p.peek().text)
	}
	if out.object, err = p.ident("an object"); err != nil {
		return nil, err
	}
	if p.keyword("WHERE") {
		for {
			c, err := p.condition()
			if err != nil {
				return nil, err
			}
			out.where = append(out.where, c)
			if p.keyword("AND") {
				continue
			}
			if t := p.peek(); t.kind == tIdent && strings.EqualFold(t.text, "OR") {
				return nil, malformed("the stand-in supports conditions joined by AND only")
			}
			break
		}
	}
	if p.keyword("ORDER") {
		if !p.keyword("BY") {
			return nil, malformed("expected BY after ORDER")
		}
		for {
			f, err := p.ident("a field")
			if err != nil {
				return nil, err
			}
			k := orderKey{field: f}
			if p.keyword("DESC") {
				k.desc = true
			} else {
				p.keyword("ASC")
			}
			k.nullsFirst = !k.desc
			if p.keyword("NULLS") {
				switch {
				case p.keyword("FIRST"):
					k.nullsFirst = true
				case p.keyword("LAST"):
					k.nullsFirst = false
				default:
					return nil, malformed("expected FIRST or LAST after NULLS")
				}
			}
			out.order = append(out.order, k)
			if t := p.peek(); t.kind == tPunct && t.text == "," {
				p.next()
				continue
			}
			break
		}
	}
	if p.keyword("LIMIT") {
		t := p.next()
		n, err := strconv.Atoi(t.text)
		if t.kind != tBare || err != nil || n < 0 {
			return nil, malformed("LIMIT needs a non-negative integer")
		}
		out.limit = n
	}
	if p.keyword("OFFSET") {
		t := p.next()
		n, err := strconv.Atoi(t.text)
		if t.kind != tBare || err != nil || n < 0 {
			return nil, malformed("OFFSET needs a non-negative integer")
		}
		out.offset = n
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, malformed("unexpected token: %q", t.text)
	}
	return out, nil
}

func (p *parser) condition() (condition, error) {
	f, err := p.ident("a field")
	if err != nil {
		return condition{}, err
	}
	c := condition{field: f}
	t := p.peek()
	switch {
	case t.kind == tPunct && strings.Contains("= != <> < <= > >=", t.text) && t.text != ",":
		p.next()
		c.op = t.text
		if c.op == "<>" {
			c.op = "!="
		}
	case t.kind == tIdent && strings.EqualFold(t.text, "LIKE"):
		p.next()
		c.op = "LIKE"
	case t.kind == tIdent && strings.EqualFold(t.text, "IN"):
		p.next()
		c.op = "IN"
	case t.kind == tIdent && strings.EqualFold(t.text, "NOT"):
		p.next()
		if !p.keyword("IN") {
			return c, malformed("expected IN after NOT")
		}
		c.op = "NOT IN"
	default:
		return c, malformed("expected an operator after %s, found %q", f, t.text)
	}
	if c.op == "IN" || c.op == "NOT IN" {
		if t := p.next(); t.kind != tPunct || t.text != "(" {
			return c, malformed("expected ( after IN")
		}
		for {
			v, err := p.literal()
			if err != nil {
				return c, err
			}
			c.values = append(c.values, v)
			t := p.next()
			if t.kind == tPunct && t.text == "," {
				continue
			}
			if t.kind == tPunct && t.text == ")" {
				break
			}
			return c, malformed("expected , or ) in the IN list")
		}
		return c, nil
	}
	v, err := p.literal()
	if err != nil {
		return c, err
	}
	c.values = []any{v}
	return c, nil
}

// --- objects --------------------------------------------------------------------

// schema is what one object exposes to SOQL and to the sObject resources.
type schema struct {
	name   string
	fields []string            // canonical API names
	rels   map[string]relation // by lower-cased relationship name
}

// relation is a lookup followed in a field path (Product2.ProductCode).
type relation struct{ name, object string }

func (sc *schema) canonical(name string) (string, bool) {
	for _, f := range sc.fields {
		if strings.EqualFold(f, name) {
			return f, true
		}
	}
	return "", false
}

// record is one row as SOQL sees it: values by lower-cased field name;
// relationships hold a *record (or nil).
type record struct {
	typ  string
	id   string
	vals map[string]any
}

func newRecord(typ, id string) *record {
	return &record{typ: typ, id: id, vals: map[string]any{"id": id}}
}

func (r *record) set(field string, v any) *record {
	r.vals[strings.ToLower(field)] = v
	return r
}

// get walks a field path ("Product2.ProductCode").
func (r *record) get(path string) any {
	cur := r
	parts := strings.Split(path, ".")
	for i, p := range parts {
		if cur == nil {
			return nil
		}
		v := cur.vals[strings.ToLower(p)]
		if i == len(parts)-1 {
			return v
		}
		next, _ := v.(*record)
		cur = next
	}
	return nil
}

// resolve checks a field path against the schemas and returns its canonical spelling.
func resolve(schemas map[string]*schema, object, path string) (string, error) {
	sc := schemas[strings.ToLower(object)]
	parts := strings.Split(path, ".")
	canon := make([]string, len(parts))
	for i, p := range parts {
		if i < len(parts)-1 {
			rel, ok := sc.rels[strings.ToLower(p)]
			if !ok {
				return "", &sfError{400, "INVALID_FIELD", fmt.Sprintf("Didn't understand relationship '%s' in field path. If you are attempting to use a custom relationship, be sure to append the '__r' after the custom relationship name.", p)}
			}
			canon[i] = rel.name
			sc = schemas[strings.ToLower(rel.object)]
			continue
		}
		f, ok := sc.canonical(p)
		if !ok {
			return "", &sfError{400, "INVALID_FIELD", fmt.Sprintf("No such column '%s' on entity '%s'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name. Please reference your WSDL or the describe call for the appropriate names.", p, sc.name)}
		}
		canon[i] = f
	}
	return strings.Join(canon, "."), nil
}

// --- evaluation -----------------------------------------------------------------

func (q *soqlQuery) check(schemas map[string]*schema) error {
	sc, ok := schemas[strings.ToLower(q.object)]
	if !ok {
		return &sfError{400, "INVALID_TYPE", fmt.Sprintf("sObject type '%s' is not supported. If you are attempting to use a custom object, be sure to append the '__c' after the entity name.", q.object)}
	}
	q.object = sc.name
	for i, f := range q.fields {
		c, err := resolve(schemas, q.object, f)
		if err != nil {
			return err
		}
		q.fields[i] = c
	}
	for i := range q.where {
		c, err := resolve(schemas, q.object, q.where[i].field)
		if err != nil {
			return err
		}
		q.where[i].field = c
	}
	for i := range q.order {
		c, err := resolve(schemas, q.object, q.order[i].field)
		if err != nil {
			return err
		}
		q.order[i].field = c
	}
	return nil
}

func (q *soqlQuery) run(recs []*record) ([]*record, error) {
	var out []*record
	for _, r := range recs {
		ok := true
		for _, c := range q.where {
			m, err := c.match(r.get(c.field))
			if err != nil {
				return nil, err
			}
			if !m {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, r)
		}
	}
	if len(q.order) > 0 {
		sort.SliceStable(out, func(i, j int) bool {
			for _, k := range q.order {
				a, b := out[i].get(k.field), out[j].get(k.field)
				if a == nil || b == nil {
					if (a == nil) == (b == nil) {
						continue
					}
					return (a == nil) == k.nullsFirst
				}
				c := compareValues(a, b)
				if c == 0 {
					continue
				}
				if k.desc {
					return c > 0
				}
				return c < 0
			}
			return false
		})
	}
	if q.offset > 0 {
		if q.offset >= len(out) {
			out = nil
		} else {
			out = out[q.offset:]
		}
	}
	if q.limit >= 0 && len(out) > q.limit {
		out = out[:q.limit]
	}
	return out, nil
}

func compareValues(a, b any) int {
	switch x := a.(type) {
	case string:
		y, _ := b.(string)
		return strings.Compare(strings.ToLower(x), strings.ToLower(y))
	case float64:
		y, _ := b.(float64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case bool:
		y, _ := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	}
	return 0
}

func (c condition) match(v any) (bool, error) {
	switch c.op {
	case "IN", "NOT IN":
		in := false
		for _, lit := range c.values {
			eq, err := equal(v, lit, c.field)
			if err != nil {
				return false, err
			}
			if eq {
				in = true
				break
			}
		}
		return in == (c.op == "IN"), nil
	case "=", "!=":
		eq, err := equal(v, c.values[0], c.field)
		return eq == (c.op == "="), err
	case "LIKE":
		s, ok := v.(string)
		pat, pok := c.values[0].(string)
		if !pok {
			return false, &sfError{400, "INVALID_QUERY_FILTER_OPERATOR", "LIKE needs a string"}
		}
		return ok && likeMatch(strings.ToLower(s), strings.ToLower(pat)), nil
	}
	lit := c.values[0]
	if v == nil || lit == nil {
		return false, nil
	}
	if err := sameKind(v, lit, c.field); err != nil {
		return false, err
	}
	cmp := compareValues(v, lit)
	switch c.op {
	case "<":
		return cmp < 0, nil
	case "<=":
		return cmp <= 0, nil
	case ">":
		return cmp > 0, nil
	case ">=":
		return cmp >= 0, nil
	}
	return false, malformed("unknown operator %s", c.op)
}

func sameKind(v, lit any, field string) error {
	ok := false
	switch v.(type) {
	case string:
		_, ok = lit.(string)
	case float64:
		_, ok = lit.(float64)
	case bool:
		_, ok = lit.(bool)
	case *record:
		ok = false
	}
	if !ok {
		return &sfError{400, "INVALID_QUERY_FILTER_OPERATOR", fmt.Sprintf("value of filter criterion for field '%s' must be of the field's type", field)}
	}
	return nil
}

func equal(v, lit any, field string) (bool, error) {
	if v == nil || lit == nil {
		return v == nil && lit == nil, nil
	}
	if err := sameKind(v, lit, field); err != nil {
		return false, err
	}
	if s, ok := v.(string); ok {
		return strings.EqualFold(s, lit.(string)), nil
	}
	return v == lit, nil
}

// likeMatch applies a SOQL LIKE pattern (% any run, _ one character, \ escapes).
func likeMatch(s, pat string) bool {
	if pat == "" {
		return s == ""
	}
	switch pat[0] {
	case '%':
		for i := 0; i <= len(s); i++ {
			if likeMatch(s[i:], pat[1:]) {
				return true
			}
		}
		return false
	case '_':
		return s != "" && likeMatch(s[1:], pat[1:])
	case '\\':
		if len(pat) > 1 {
			return s != "" && s[0] == pat[1] && likeMatch(s[1:], pat[2:])
		}
	}
	return s != "" && s[0] == pat[0] && likeMatch(s[1:], pat[1:])
}

// --- rendering ------------------------------------------------------------------

// ordered is a JSON object that keeps its keys in order (Salesforce answers
// fields in the order of the SELECT).
type ordered []kv

type kv struct {
	k string
	v any
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(p.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func attributes(version string, typ, id string) ordered {
	return ordered{{"type", typ}, {"url", "/services/data/" + version + "/sobjects/" + typ + "/" + id}}
}

// render writes the selected fields of a record, relationships nested.
func render(version string, r *record, fields []string) ordered {
	out := ordered{{"attributes", attributes(version, r.typ, r.id)}}
	var rels []string
	sub := map[string][]string{}
	for _, f := range fields {
		rel, rest, ok := strings.Cut(f, ".")
		if !ok {
			if !containsKey(out, f) {
				out = append(out, kv{f, r.get(f)})
			}
			continue
		}
		if _, seen := sub[rel]; !seen {
			rels = append(rels, rel)
		}
		sub[rel] = append(sub[rel], rest)
	}
	for _, rel := range rels {
		child, _ := r.get(rel).(*record)
		if child == nil {
			out = append(out, kv{rel, nil})
			continue
		}
		out = append(out, kv{rel, render(version, child, sub[rel])})
	}
	return out
}

func containsKey(o ordered, k string) bool {
	for _, p := range o {
		if p.k == k {
			return true
		}
	}
	return false
}
