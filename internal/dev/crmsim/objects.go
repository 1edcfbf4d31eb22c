package crmsim

import (
	"context"
	_ "embed"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"oportuna/cnpj"
	"oportuna/crm"
)

// schemaSQL creates the stand-in's schema crm_sim (idempotent).
//
//go:embed schema.sql
var schemaSQL string

// schemaLockKey serialises the stand-ins creating their schema at once.
const schemaLockKey int64 = 0x63726d5f73696d // "crm_sim"

// Object names.
const (
	objAccount        = "Account"
	objUser           = "User"
	objOpportunity    = "Opportunity"
	objLineItem       = "OpportunityLineItem"
	objPricebook      = "Pricebook2"
	objPricebookEntry = "PricebookEntry"
	objProduct        = "Product2"
)

// opportunityWritable are the Opportunity fields a client may set (custom ones added from Fields).
var opportunityWritable = []string{"Name", "AccountId", "StageName", "CloseDate", "Amount", "Probability", "OwnerId", "Description", "Pricebook2Id"}

func addField(list []string, f string) []string {
	if f == "" {
		return list
	}
	for _, x := range list {
		if strings.EqualFold(x, f) {
			return list
		}
	}
	return append(list, f)
}

func buildSchemas(f crm.Fields) map[string]*schema {
	user := []string{"Id", "Name", "Email", "Username", "IsActive", "UserType", "CompanyName"}
	user = addField(addField(user, f.UserCompany), f.UserBrand)
	opp := []string{"Id", "Name", "AccountId", "StageName", "CloseDate", "Amount", "Probability", "IsClosed", "IsWon", "OwnerId",
		"Description", "Pricebook2Id", "CreatedDate", "LastModifiedDate"}
	for _, c := range []string{f.OpportunityExternalID, f.OpportunityBrand, f.OpportunityReseller, f.OpportunitySeller} {
		opp = addField(opp, c)
	}
	list := []*schema{
		{name: objAccount, fields: []string{"Id", "Name", f.AccountCNPJ, "CreatedDate"}},
		{name: objUser, fields: user},
		{name: objOpportunity, fields: opp, rels: map[string]relation{"account": {"Account", objAccount}, "owner": {"Owner", objUser}}},
		{name: objLineItem, fields: []string{"Id", "OpportunityId", "PricebookEntryId", "Product2Id", "ProductCode", "Name", "Quantity",
			"UnitPrice", "TotalPrice", "Description", "CreatedDate"},
			rels: map[string]relation{"product2": {"Product2", objProduct}, "pricebookentry": {"PricebookEntry", objPricebookEntry}, "opportunity": {"Opportunity", objOpportunity}}},
		{name: objPricebook, fields: []string{"Id", "Name", "IsStandard", "IsActive"}},
		{name: objPricebookEntry, fields: []string{"Id", "Name", "Pricebook2Id", "Product2Id", "ProductCode", "UnitPrice", "IsActive"},
			rels: map[string]relation{"product2": {"Product2", objProduct}, "pricebook2": {"Pricebook2", objPricebook}}},
		{name: objProduct, fields: []string{"Id", "Name", "ProductCode", "IsActive"}},
	}
	out := map[string]*schema{}
	for _, sc := range list {
		out[strings.ToLower(sc.name)] = sc
	}
	return out
}

// --- seed data --------------------------------------------------------------------

type catalogItem struct {
	code, name string
	price      string
}

// catalog is the stand-in's price book: the demo data's part numbers and the
// generic item that carries any other part number.
var catalog = []catalogItem{
	{"CT-40", "Coletor de dados CT-40", "4890.00"},
	{"CT-60", "Coletor robusto CT-60", "6120.00"},
	{"ZL-420", "Impressora de etiquetas ZL-420", "3150.50"},
	{"MP-2", "Impressora móvel MP-2", "1899.90"},
	{"TAG-R", "Leitor RFID TAG-R", "9540.00"},
}

var (
	firstNames = []string{"Ana", "Bruno", "Camila", "Diego", "Elisa", "Fábio", "Gabriela", "Henrique", "Isabela", "João",
		"Larissa", "Marcelo", "Natália", "Otávio", "Patrícia", "Rafael", "Sabrina", "Tiago", "Vanessa", "William"}
	lastNames = []string{"Almeida", "Barbosa", "Cardoso", "Duarte", "Esteves", "Ferraz", "Gonçalves", "Honorato", "Macedo",
		"Nascimento", "Oliveira", "Pacheco", "Queiroz", "Ribeiro", "Siqueira", "Teixeira", "Vasconcelos"}
	companyWords = []string{"Comercial", "Distribuidora", "Indústria", "Atacadista", "Logística", "Supermercados", "Farmacêutica", "Transportes"}
	companyNames = []string{"Horizonte", "Serra Azul", "Boa Vista", "Rio Claro", "Sol Nascente", "Vale Verde", "Ponte Alta", "Mar Aberto",
		"Três Rios", "Nova Aliança", "Santa Luzia", "Pedra Branca"}
)

func hashOf(s string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(s))
	return h.Sum64()
}

var asciiFold = strings.NewReplacer("á", "a", "â", "a", "ã", "a", "é", "e", "ê", "e", "í", "i", "ó", "o", "ô", "o", "ç", "c", "ú", "u")

// Seed creates the sellers of every brand and the catalogue (once per Sim; idempotent).
//
// Seed first creates the stand-in's schema crm_sim when it is missing
// (schema.sql, idempotent).
func (s *Sim) Seed(ctx context.Context) error {
	s.seedMu.Lock()
	defer s.seedMu.Unlock()
	if s.seeded {
		return nil
	}
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		// The stand-in's schema is its own: created here, never by the
		// product's migrations. The lock makes concurrent starts (an api and a
		// worker, tests) wait for each other instead of racing on CREATE.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, schemaLockKey); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, schemaSQL); err != nil {
			return fmt.Errorf("create schema crm_sim: %w", err)
		}
		items := append([]catalogItem{{s.opts.GenericProduct, "Item registrado no portal (part number na descrição)", "0"}}, catalog...)
		for _, it := range items {
			if _, err := tx.Exec(ctx, `INSERT INTO crm_sim.products (id, entry_id, code, name, unit_price) VALUES ($1, $2, $3, $4, $5::numeric)
				ON CONFLICT (code) DO NOTHING`, stableID(prefixProduct, it.code), stableID(prefixPricebookEntry, it.code), it.code, it.name, it.price); err != nil {
				return err
			}
		}
		if s.opts.Brands == nil {
			return nil
		}
		for _, b := range s.opts.Brands.All() {
			for i := 0; i <= s.opts.SellersPerBrand; i++ {
				h := hashOf(b.Slug)
				first := firstNames[(int(h%uint64(len(firstNames)))+i*3)%len(firstNames)]
				last := lastNames[(int(h/7%uint64(len(lastNames)))+i*5)%len(lastNames)]
				active := i < s.opts.SellersPerBrand // the last one has left the company
				email := asciiFold.Replace(strings.ToLower(first+"."+last)) + fmt.Sprintf("%d@%s.crm.example", i+1, b.Slug)
				if _, err := tx.Exec(ctx, `INSERT INTO crm_sim.users (id, brand, name, email, company, active) VALUES ($1, $2, $3, $4, $5, $6)
					ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email, company = EXCLUDED.company, active = EXCLUDED.active`,
					stableID(prefixUser, fmt.Sprintf("seller/%s/%d", b.Slug, i)), b.Slug, first+" "+last, email, b.Name, active); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("crm-sim: seed: %w", err)
	}
	s.seeded = true
	return nil
}

// missingRange: CNPJs whose order number is 9999 are never created (a demo of
// the customer-not-found message without the admin API).
func missingRange(doc string) bool { return len(doc) == 14 && doc[8:12] == "9999" }

// ensureAccounts creates, for each valid CNPJ looked up, its Account when the
// CRM has none and the CNPJ is not told to be missing.
func (s *Sim) ensureAccounts(ctx context.Context, values []any) error {
	seen := map[string]bool{}
	for _, v := range values {
		str, ok := v.(string)
		doc := cnpj.Normalize(str)
		if !ok || !cnpj.Valid(doc) || missingRange(doc) || seen[doc] {
			continue
		}
		seen[doc] = true
		err := pgx.BeginFunc(ctx, s.q(ctx), func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('crm_sim.account/' || $1))`, doc); err != nil {
				return err
			}
			h := hashOf(doc)
			name := fmt.Sprintf("%s %s Ltda", companyWords[h%uint64(len(companyWords))], companyNames[h/11%uint64(len(companyNames))])
			_, err := tx.Exec(ctx, `INSERT INTO crm_sim.accounts (id, name, cnpj)
				SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM crm_sim.accounts WHERE cnpj_digits = $4)
					AND NOT EXISTS (SELECT 1 FROM crm_sim.missing_customers WHERE cnpj = $4)`,
				s.nextID(ctx, tx, prefixAccount), name, cnpj.Format(doc), doc)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// nextID draws a record id from the sequence.
func (s *Sim) nextID(ctx context.Context, q querier, prefix string) string {
	var n int64
	if err := q.QueryRow(ctx, `SELECT nextval('crm_sim.record_seq')`).Scan(&n); err != nil {
		n = time.Now().UnixNano() // only if the sequence is unreachable; the write then fails anyway
	}
	return recordID(prefix, uint64(n))
}

// --- loading records for SOQL ------------------------------------------------------

const sfDateTime = "2006-01-02T15:04:05.000-0700"

// scope narrows what load reads from PostgreSQL to a superset of what a query
// can match (the query still evaluates its every condition): nil fields read
// everything. It keeps a lookup by external id or CNPJ from reading every
// record the stand-in holds.
type scope struct {
	extIDs []string // Opportunity, OpportunityLineItem: the opportunity's external id
	oppIDs []string // Opportunity: Id; OpportunityLineItem: OpportunityId
	ids    []string // Account: Id
	cnpjs  []string // Account: CNPJ digits
}

// scopeOf reads the equality conditions of a query that load can push down.
func (s *Sim) scopeOf(q *soqlQuery) scope {
	var sc scope
	strs := func(vals []any) []string {
		out := make([]string, 0, len(vals))
		for _, v := range vals {
			if str, ok := v.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	ext := s.opts.Fields.OpportunityExternalID
	for _, c := range q.where {
		if c.op != "=" && c.op != "IN" {
			continue
		}
		switch {
		case q.object == objOpportunity && strings.EqualFold(c.field, ext):
			sc.extIDs = strs(c.values)
		case q.object == objOpportunity && strings.EqualFold(c.field, "Id"):
			sc.oppIDs = strs(c.values)
		case q.object == objLineItem && strings.EqualFold(c.field, "Opportunity."+ext):
			sc.extIDs = strs(c.values)
		case q.object == objLineItem && strings.EqualFold(c.field, "OpportunityId"):
			sc.oppIDs = strs(c.values)
		case q.object == objAccount && strings.EqualFold(c.field, s.opts.Fields.AccountCNPJ):
			for _, v := range strs(c.values) {
				sc.cnpjs = append(sc.cnpjs, cnpj.Normalize(v))
			}
		case q.object == objAccount && strings.EqualFold(c.field, "Id"):
			sc.ids = strs(c.values)
		}
	}
	return sc
}

func (s *Sim) load(ctx context.Context, object string, sc scope) ([]*record, error) {
	f := s.opts.Fields
	switch object {
	case objAccount:
		rows, _ := s.q(ctx).Query(ctx, `SELECT id, name, cnpj, created_at FROM crm_sim.accounts a
			WHERE NOT EXISTS (SELECT 1 FROM crm_sim.missing_customers m WHERE m.cnpj = a.cnpj_digits)
				AND ($1::text[] IS NULL OR a.cnpj_digits = ANY($1)) AND ($2::text[] IS NULL OR a.id = ANY($2))
			ORDER BY created_at, id`, sc.cnpjs, sc.ids)
		return collect(rows, func(row pgx.CollectableRow) (*record, error) {
			var id, name, doc string
			var created time.Time
			err := row.Scan(&id, &name, &doc, &created)
			return newRecord(objAccount, id).set("Name", name).set(f.AccountCNPJ, doc).set("CreatedDate", created.UTC().Format(sfDateTime)), err
		})
	case objUser:
		rows, _ := s.q(ctx).Query(ctx, `SELECT id, brand, name, email, company, active FROM crm_sim.users ORDER BY id`)
		return collect(rows, func(row pgx.CollectableRow) (*record, error) {
			var id, brandSlug, name, email, company string
			var active bool
			err := row.Scan(&id, &brandSlug, &name, &email, &company, &active)
			r := newRecord(objUser, id).set("Name", name).set("Email", email).set("Username", email).set("IsActive", active).
				set("UserType", "Standard").set("CompanyName", company)
			if f.UserCompany != "" {
				r.set(f.UserCompany, company)
			}
			if f.UserBrand != "" {
				r.set(f.UserBrand, brandSlug)
			}
			return r, err
		})
	case objOpportunity:
		rows, _ := s.q(ctx).Query(ctx, `SELECT o.id, o.external_id, COALESCE(o.account_id, ''), o.name, o.stage_name, o.close_date,
				COALESCE((SELECT sum(l.quantity * l.unit_price) FROM crm_sim.line_items l WHERE l.opportunity_id = o.id), o.amount)::float8,
				o.probability, COALESCE(o.owner_id, ''), COALESCE(o.brand, ''), COALESCE(o.reseller, ''), o.description,
				COALESCE(o.pricebook_id, ''), o.created_at, o.updated_at
			FROM crm_sim.opportunities o
			WHERE ($1::text[] IS NULL OR o.external_id = ANY($1)) AND ($2::text[] IS NULL OR o.id = ANY($2))
			ORDER BY o.created_at, o.id`, sc.extIDs, sc.oppIDs)
		opps, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (oppRow, error) {
			var o oppRow
			err := row.Scan(&o.id, &o.externalID, &o.accountID, &o.name, &o.stage, &o.closeDate, &o.amount, &o.probability,
				&o.ownerID, &o.brand, &o.reseller, &o.description, &o.pricebookID, &o.createdAt, &o.updatedAt)
			return o, err
		})
		if err != nil {
			return nil, err
		}
		accountScope := scope{ids: []string{}}
		for _, o := range opps {
			accountScope.ids = append(accountScope.ids, o.accountID)
		}
		if sc.extIDs == nil && sc.oppIDs == nil {
			accountScope = scope{}
		}
		accounts, err := s.byID(ctx, objAccount, accountScope)
		if err != nil {
			return nil, err
		}
		users, err := s.byID(ctx, objUser, scope{})
		if err != nil {
			return nil, err
		}
		out := make([]*record, len(opps))
		for i, o := range opps {
			out[i] = s.oppRecord(o, accounts, users)
		}
		return out, nil
	case objPricebook:
		return []*record{standardPricebook()}, nil
	case objProduct, objPricebookEntry:
		rows, _ := s.q(ctx).Query(ctx, `SELECT id, entry_id, code, name, unit_price::float8, active FROM crm_sim.products ORDER BY code`)
		return collect(rows, func(row pgx.CollectableRow) (*record, error) {
			var id, entry, code, name string
			var price float64
			var active bool
			err := row.Scan(&id, &entry, &code, &name, &price, &active)
			product := newRecord(objProduct, id).set("Name", name).set("ProductCode", code).set("IsActive", active)
			if object == objProduct {
				return product, err
			}
			return newRecord(objPricebookEntry, entry).set("Name", name).set("Pricebook2Id", standardPricebookID).set("Product2Id", id).
				set("ProductCode", code).set("UnitPrice", price).set("IsActive", active).set("Product2", product).set("Pricebook2", standardPricebook()), err
		})
	case objLineItem:
		opps, err := s.byID(ctx, objOpportunity, sc)
		if err != nil {
			return nil, err
		}
		rows, _ := s.q(ctx).Query(ctx, `SELECT l.id, l.opportunity_id, l.entry_id, p.id, p.code, p.name, p.active, l.quantity::float8,
				l.unit_price::float8, l.description, l.created_at
			FROM crm_sim.line_items l JOIN crm_sim.products p ON p.entry_id = l.entry_id JOIN crm_sim.opportunities o ON o.id = l.opportunity_id
			WHERE ($1::text[] IS NULL OR o.external_id = ANY($1)) AND ($2::text[] IS NULL OR l.opportunity_id = ANY($2))
			ORDER BY l.id`, sc.extIDs, sc.oppIDs)
		return collect(rows, func(row pgx.CollectableRow) (*record, error) {
			var id, oppID, entry, productID, code, name, desc string
			var active bool
			var qty, price float64
			var created time.Time
			err := row.Scan(&id, &oppID, &entry, &productID, &code, &name, &active, &qty, &price, &desc, &created)
			product := newRecord(objProduct, productID).set("Name", name).set("ProductCode", code).set("IsActive", active)
			pbe := newRecord(objPricebookEntry, entry).set("Name", name).set("Pricebook2Id", standardPricebookID).set("Product2Id", productID).
				set("ProductCode", code).set("IsActive", active).set("Product2", product)
			r := newRecord(objLineItem, id).set("OpportunityId", oppID).set("PricebookEntryId", entry).set("Product2Id", productID).
				set("ProductCode", code).set("Name", name).set("Quantity", qty).set("UnitPrice", price).set("TotalPrice", qty*price).
				set("Description", desc).set("CreatedDate", created.UTC().Format(sfDateTime)).set("Product2", product).set("PricebookEntry", pbe)
			if o, ok := opps[oppID]; ok {
				r.set("Opportunity", o)
			}
			return r, err
		})
	}
	return nil, &sfError{400, "INVALID_TYPE", fmt.Sprintf("sObject type '%s' is not supported.", object)}
}

func standardPricebook() *record {
	return newRecord(objPricebook, standardPricebookID).set("Name", "Standard Price Book").set("IsStandard", true).set("IsActive", true)
}

func collect(rows pgx.Rows, fn func(pgx.CollectableRow) (*record, error)) ([]*record, error) {
	return pgx.CollectRows(rows, fn)
}

func (s *Sim) byID(ctx context.Context, object string, sc scope) (map[string]*record, error) {
	recs, err := s.load(ctx, object, sc)
	if err != nil {
		return nil, err
	}
	m := make(map[string]*record, len(recs))
	for _, r := range recs {
		m[r.id] = r
	}
	return m, nil
}

// oppRow is a crm_sim.opportunities row.
type oppRow struct {
	id, externalID, accountID, name, stage string
	closeDate                              time.Time
	amount                                 *float64
	probability                            *int
	ownerID, brand, reseller, description  string
	pricebookID                            string
	createdAt, updatedAt                   time.Time
}

func closedStage(stage string) (closed, won bool) {
	switch strings.ToLower(stage) {
	case "closed won":
		return true, true
	case "closed lost":
		return true, false
	}
	return false, false
}

func (s *Sim) oppRecord(o oppRow, accounts, users map[string]*record) *record {
	f := s.opts.Fields
	closed, won := closedStage(o.stage)
	r := newRecord(objOpportunity, o.id).set("Name", o.name).set("AccountId", nullable(o.accountID)).set("StageName", o.stage).
		set("CloseDate", o.closeDate.Format("2006-01-02")).set("IsClosed", closed).set("IsWon", won).
		set("OwnerId", nullable(o.ownerID)).set("Description", nullable(o.description)).set("Pricebook2Id", nullable(o.pricebookID)).
		set("CreatedDate", o.createdAt.UTC().Format(sfDateTime)).set("LastModifiedDate", o.updatedAt.UTC().Format(sfDateTime)).
		set(f.OpportunityExternalID, o.externalID)
	if o.amount != nil {
		r.set("Amount", *o.amount)
	} else {
		r.set("Amount", nil)
	}
	if o.probability != nil {
		r.set("Probability", float64(*o.probability))
	} else {
		r.set("Probability", nil)
	}
	if f.OpportunityBrand != "" {
		r.set(f.OpportunityBrand, nullable(o.brand))
	}
	if f.OpportunityReseller != "" {
		r.set(f.OpportunityReseller, nullable(o.reseller))
	}
	if f.OpportunitySeller != "" {
		r.set(f.OpportunitySeller, nullable(o.ownerID))
	}
	if a, ok := accounts[o.accountID]; ok {
		r.set("Account", a)
	}
	if u, ok := users[o.ownerID]; ok {
		r.set("Owner", u)
	}
	return r
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
