package crmsim

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
)

// --- query ------------------------------------------------------------------------

// cursor holds the rest of a query's answer for nextRecordsUrl.
type cursor struct {
	records []ordered
	created time.Time
}

type queryResult struct {
	TotalSize      int       `json:"totalSize"`
	Done           bool      `json:"done"`
	NextRecordsURL string    `json:"nextRecordsUrl,omitempty"`
	Records        []ordered `json:"records"`
}

func (s *Sim) handleQuery(w http.ResponseWriter, r *http.Request, version string) {
	q := r.URL.Query().Get("q")
	if strings.TrimSpace(q) == "" {
		writeErrors(w, &sfError{400, "MALFORMED_QUERY", "A query string has to be specified"})
		return
	}
	recs, fields, err := s.runQuery(r.Context(), q)
	if err != nil {
		writeErrors(w, asSFError(err))
		return
	}
	rendered := make([]ordered, len(recs))
	for i, rec := range recs {
		rendered[i] = render(version, rec, fields)
	}
	writeJSON(w, http.StatusOK, s.page(version, rendered, 0, ""))
}

// runQuery parses, checks and evaluates a SOQL query.
func (s *Sim) runQuery(ctx context.Context, soql string) ([]*record, []string, error) {
	q, err := parseSOQL(soql)
	if err != nil {
		return nil, nil, err
	}
	if err := q.check(s.schemas); err != nil {
		return nil, nil, err
	}
	if q.object == objAccount {
		for _, c := range q.where {
			if strings.EqualFold(c.field, s.opts.Fields.AccountCNPJ) && (c.op == "=" || c.op == "IN") {
				if err := s.ensureAccounts(ctx, c.values); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	all, err := s.load(ctx, q.object, s.scopeOf(q))
	if err != nil {
		return nil, nil, err
	}
	recs, err := q.run(all)
	return recs, q.fields, err
}

// page answers records[from:] one page at a time; locator names a cursor already stored.
func (s *Sim) page(version string, records []ordered, from int, locator string) queryResult {
	res := queryResult{TotalSize: len(records), Done: true, Records: []ordered{}}
	end := min(from+s.currentPageSize(), len(records))
	if from < end {
		res.Records = records[from:end]
	}
	if end < len(records) {
		if locator == "" {
			locator = s.storeCursor(records)
		}
		res.Done = false
		res.NextRecordsURL = fmt.Sprintf("/services/data/%s/query/%s-%d", version, locator, end)
	}
	return res
}

func (s *Sim) storeCursor(records []ordered) string {
	raw := make([]byte, 8)
	_, _ = rand.Read(raw)
	var n uint64
	for _, b := range raw {
		n = n<<8 | uint64(b)
	}
	id := recordID("01g", n%839299365868340224)
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, c := range s.cursors {
		if time.Since(c.created) > 15*time.Minute {
			delete(s.cursors, k)
		}
	}
	s.cursors[id] = &cursor{records: records, created: time.Now()}
	return id
}

func (s *Sim) handleQueryMore(w http.ResponseWriter, r *http.Request, version string) {
	loc := r.PathValue("locator")
	i := strings.LastIndexByte(loc, '-')
	var c *cursor
	from := -1
	if i > 0 {
		from, _ = strconv.Atoi(loc[i+1:])
		s.mu.Lock()
		c = s.cursors[loc[:i]]
		s.mu.Unlock()
	}
	if c == nil || from < 0 || from > len(c.records) {
		writeErrors(w, &sfError{400, "INVALID_QUERY_LOCATOR", "invalid query locator"})
		return
	}
	writeJSON(w, http.StatusOK, s.page(version, c.records, from, loc[:i]))
}

// --- Opportunity by external id ----------------------------------------------------

// opportunityTarget checks /sobjects/{object}/{field}/{value}: only the
// Opportunity by its configured external-id field is served.
func (s *Sim) opportunityTarget(r *http.Request) (string, *sfError) {
	if !strings.EqualFold(r.PathValue("object"), objOpportunity) {
		return "", &sfError{404, "NOT_FOUND", "The requested resource does not exist"}
	}
	if !strings.EqualFold(r.PathValue("field"), s.opts.Fields.OpportunityExternalID) {
		return "", &sfError{404, "NOT_FOUND", "Provided external ID field does not exist or is not accessible: " + r.PathValue("field")}
	}
	return r.PathValue("value"), nil
}

func (s *Sim) opportunitiesByExternalID(ctx context.Context, extID string) ([]*record, error) {
	all, err := s.load(ctx, objOpportunity, scope{extIDs: []string{extID}})
	if err != nil {
		return nil, err
	}
	var out []*record
	for _, r := range all {
		if v, _ := r.get(s.opts.Fields.OpportunityExternalID).(string); v == extID {
			out = append(out, r)
		}
	}
	return out, nil
}

func multipleChoices(w http.ResponseWriter, version string, recs []*record) {
	urls := make([]string, len(recs))
	for i, r := range recs {
		urls[i] = "/services/data/" + version + "/sobjects/" + r.typ + "/" + r.id
	}
	writeJSON(w, http.StatusMultipleChoices, urls)
}

func (s *Sim) handleGetByExternalID(w http.ResponseWriter, r *http.Request, version string) {
	extID, e := s.opportunityTarget(r)
	if e != nil {
		writeErrors(w, e)
		return
	}
	recs, err := s.opportunitiesByExternalID(r.Context(), extID)
	switch {
	case err != nil:
		writeErrors(w, asSFError(err))
		return
	case len(recs) == 0:
		writeErrors(w, &sfError{404, "NOT_FOUND", "The requested resource does not exist"})
		return
	case len(recs) > 1:
		multipleChoices(w, version, recs)
		return
	}
	fields := s.schemas[strings.ToLower(objOpportunity)].fields
	if list := r.URL.Query().Get("fields"); list != "" {
		fields = nil
		for _, f := range strings.Split(list, ",") {
			c, err := resolve(s.schemas, objOpportunity, strings.TrimSpace(f))
			if err != nil {
				writeErrors(w, asSFError(err))
				return
			}
			fields = append(fields, c)
		}
	}
	writeJSON(w, http.StatusOK, render(version, recs[0], fields))
}

var dateOnly = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)

// oppChanges are the fields of an upsert body, checked.
type oppChanges struct {
	set     map[string]bool // canonical names present
	name    string
	account string
	stage   string
	close   time.Time
	amount  *float64
	prob    *int
	owner   string
	desc    string
	pb      string
	brand   string
	resell  string
}

func fieldErr(code, msg string) *sfError { return &sfError{400, code, msg} }

// parseChanges checks an upsert body like Salesforce would.
func (s *Sim) parseChanges(body []byte) (*oppChanges, map[string]any, *sfError) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return nil, nil, fieldErr("JSON_PARSER_ERROR", "The request body is not a JSON object")
	}
	f := s.opts.Fields
	writable := append([]string{}, opportunityWritable...)
	for _, c := range []string{f.OpportunityBrand, f.OpportunityReseller, f.OpportunitySeller} {
		writable = addField(writable, c)
	}
	sc := s.schemas[strings.ToLower(objOpportunity)]
	ch := &oppChanges{set: map[string]bool{}}
	clean := map[string]any{}
	for k, v := range raw {
		canon, ok := sc.canonical(k)
		if !ok {
			return nil, nil, fieldErr("INVALID_FIELD", fmt.Sprintf("No such column '%s' on sobject of type Opportunity", k))
		}
		if !containsFold(writable, canon) {
			return nil, nil, fieldErr("INVALID_FIELD_FOR_INSERT_UPDATE", fmt.Sprintf("Unable to create/update fields: %s. Please check the security settings of this field and verify that it is read/write for your profile or permission set.", canon))
		}
		clean[canon] = v
		ch.set[canon] = true
		str := func(max int) (string, *sfError) {
			if v == nil {
				return "", nil
			}
			t, ok := v.(string)
			if !ok {
				return "", fieldErr("JSON_PARSER_ERROR", fmt.Sprintf("Cannot deserialize instance of string from %T value for %s", v, canon))
			}
			if utf8.RuneCountInString(t) > max {
				return "", fieldErr("STRING_TOO_LONG", fmt.Sprintf("%s: data value too large: %.40s... (max length=%d)", canon, t, max))
			}
			return t, nil
		}
		var e *sfError
		switch {
		case canon == "Name":
			ch.name, e = str(120)
		case canon == "AccountId":
			ch.account, e = str(18)
		case canon == "StageName":
			if ch.stage, e = str(255); e == nil && !s.stages[strings.ToLower(ch.stage)] {
				e = fieldErr("INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST", "Stage: bad value for restricted picklist field: "+ch.stage)
			}
		case canon == "CloseDate":
			var d string
			if d, e = str(10); e == nil {
				t, err := time.Parse("2006-01-02", d)
				if err != nil || !dateOnly.MatchString(d) {
					e = fieldErr("JSON_PARSER_ERROR", "Cannot deserialize instance of date from VALUE_STRING value "+d)
				}
				ch.close = t
			}
		case canon == "Amount":
			if v != nil {
				n, ok := v.(json.Number)
				x, err := n.Float64()
				if !ok || err != nil {
					e = fieldErr("JSON_PARSER_ERROR", "Cannot deserialize instance of currency from the value of Amount")
				}
				ch.amount = &x
			}
		case canon == "Probability":
			if v != nil {
				n, ok := v.(json.Number)
				x, err := n.Float64()
				if !ok || err != nil || x < 0 || x > 100 {
					e = fieldErr("NUMBER_OUTSIDE_VALID_RANGE", "Probability (%): value outside of valid range on numeric field")
				}
				p := int(x)
				ch.prob = &p
			}
		case canon == "OwnerId" || strings.EqualFold(canon, f.OpportunitySeller):
			ch.owner, e = str(18)
		case canon == "Description":
			ch.desc, e = str(32000)
		case canon == "Pricebook2Id":
			ch.pb, e = str(18)
		case strings.EqualFold(canon, f.OpportunityBrand):
			ch.brand, e = str(255)
		case strings.EqualFold(canon, f.OpportunityReseller):
			ch.resell, e = str(255)
		}
		if e != nil {
			return nil, nil, e
		}
	}
	return ch, clean, nil
}

func containsFold(list []string, v string) bool {
	for _, x := range list {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}

// handleUpsert is PATCH /sobjects/Opportunity/<ExtIdField>/<id>: 201 when
// created, 200 with a body (API 46.0 and later) or 204 when updated, 300 when
// several records hold the id, 400 ENTITY_IS_LOCKED when locked.
func (s *Sim) handleUpsert(w http.ResponseWriter, r *http.Request, version string) {
	extID, e := s.opportunityTarget(r)
	if e != nil {
		writeErrors(w, e)
		return
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, 1<<20)); err != nil {
		writeErrors(w, fieldErr("JSON_PARSER_ERROR", "The request body could not be read"))
		return
	}
	ch, clean, e := s.parseChanges(buf.Bytes())
	if e != nil {
		writeErrors(w, e)
		return
	}
	ctx := r.Context()
	if s.takeDuplicateValue() {
		id := s.writingID(extID)
		if recs, err := s.opportunitiesByExternalID(ctx, extID); err == nil && len(recs) > 0 {
			id = recs[0].id
		}
		writeErrors(w, s.duplicateValue(ctx, id))
		return
	}
	hold := s.takeWriteDelay()
	var id string
	var created bool
	var several []*record
	err := pgx.BeginFunc(ctx, s.q(ctx), func(tx pgx.Tx) error {
		// The external id's lock, held until the transaction ends (the
		// Composite call's, under allOrNone).
		var free bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock(hashtext('crm_sim.opportunity/' || $1))`, extID).Scan(&free); err != nil {
			return err
		}
		if !free {
			// Another upsert of this external id is running. When it is
			// creating the record, this one would create a second: Salesforce
			// answers DUPLICATE_VALUE (the unique external id). When it
			// updates a record, this one waits for it, as for a row lock.
			var exists bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM crm_sim.opportunities WHERE external_id = $1)`, extID).Scan(&exists); err != nil {
				return err
			}
			if !exists {
				return s.duplicateValue(ctx, s.writingID(extID))
			}
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('crm_sim.opportunity/' || $1))`, extID); err != nil {
				return err
			}
		}
		rows, _ := tx.Query(ctx, `SELECT id FROM crm_sim.opportunities WHERE external_id = $1 ORDER BY created_at, id`, extID)
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		defer func() {
			if hold > 0 {
				time.Sleep(hold) // the write still runs inside the org
			}
		}()
		if len(ids) > 1 {
			for _, i := range ids {
				several = append(several, newRecord(objOpportunity, i))
			}
			return nil
		}
		var locked bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM crm_sim.locked_opportunities WHERE external_id = $1)`, extID).Scan(&locked); err != nil {
			return err
		}
		if locked {
			return fieldErr("ENTITY_IS_LOCKED", "the entity is locked for editing")
		}
		if err := s.checkReferences(ctx, tx, ch, ids); err != nil {
			return err
		}
		fields, _ := json.Marshal(clean)
		if len(ids) == 0 {
			var missing []string
			for _, req := range []string{"Name", "StageName", "CloseDate"} {
				if !ch.set[req] {
					missing = append(missing, req)
				}
			}
			if len(missing) > 0 {
				return fieldErr("REQUIRED_FIELD_MISSING", "Required fields are missing: ["+strings.Join(missing, ", ")+"]")
			}
			id, created = s.nextID(ctx, tx, prefixOpportunity), true
			s.startWrite(ctx, extID, id)
			_, err := tx.Exec(ctx, `INSERT INTO crm_sim.opportunities (id, external_id, account_id, name, stage_name, close_date, amount,
					probability, owner_id, brand, reseller, description, pricebook_id, fields)
				VALUES ($1, $2, NULLIF($3, ''), $4, $5, $6, $7, $8, NULLIF($9, ''), NULLIF($10, ''), NULLIF($11, ''), $12, NULLIF($13, ''), $14)`,
				id, extID, ch.account, ch.name, ch.stage, ch.close, ch.amount, ch.prob, ch.owner, ch.brand, ch.resell, ch.desc, ch.pb, fields)
			return err
		}
		id = ids[0]
		s.startWrite(ctx, extID, id)
		_, err = tx.Exec(ctx, `UPDATE crm_sim.opportunities SET
				account_id = CASE WHEN $2 THEN NULLIF($3, '') ELSE account_id END,
				name = CASE WHEN $4 THEN $5 ELSE name END,
				stage_name = CASE WHEN $6 THEN $7 ELSE stage_name END,
				close_date = CASE WHEN $8 THEN $9::date ELSE close_date END,
				amount = CASE WHEN $10 THEN $11 ELSE amount END,
				probability = CASE WHEN $12 THEN $13 ELSE probability END,
				owner_id = CASE WHEN $14 THEN NULLIF($15, '') ELSE owner_id END,
				brand = CASE WHEN $16 THEN NULLIF($17, '') ELSE brand END,
				reseller = CASE WHEN $18 THEN NULLIF($19, '') ELSE reseller END,
				description = CASE WHEN $20 THEN $21 ELSE description END,
				pricebook_id = CASE WHEN $22 THEN NULLIF($23, '') ELSE pricebook_id END,
				fields = fields || $24, updated_at = now()
			WHERE id = $1`, id,
			ch.set["AccountId"], ch.account, ch.set["Name"], ch.name, ch.set["StageName"], ch.stage, ch.set["CloseDate"], ch.close,
			ch.set["Amount"], ch.amount, ch.set["Probability"], ch.prob, ch.set["OwnerId"] || s.setFold(ch, s.opts.Fields.OpportunitySeller), ch.owner,
			s.setFold(ch, s.opts.Fields.OpportunityBrand), ch.brand, s.setFold(ch, s.opts.Fields.OpportunityReseller), ch.resell,
			ch.set["Description"], ch.desc, ch.set["Pricebook2Id"], ch.pb, fields)
		return err
	})
	switch {
	case err != nil:
		writeErrors(w, asSFError(err))
	case several != nil:
		multipleChoices(w, version, several)
	case created:
		writeJSON(w, http.StatusCreated, map[string]any{"id": id, "success": true, "errors": []any{}, "created": true})
	case apiVersion(version) >= 46:
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "success": true, "errors": []any{}, "created": false})
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// duplicateValue is Salesforce's refusal of an insert whose unique external id
// another record (id, possibly not committed yet) already holds.
func (s *Sim) duplicateValue(ctx context.Context, id string) *sfError {
	if id == "" {
		id = s.nextID(ctx, s.db, prefixOpportunity)
	}
	return &sfError{400, "DUPLICATE_VALUE", "duplicate value found: " + s.opts.Fields.OpportunityExternalID + " duplicates value on record with id: " + id}
}

func (s *Sim) setFold(ch *oppChanges, field string) bool {
	if field == "" {
		return false
	}
	for k := range ch.set {
		if strings.EqualFold(k, field) {
			return true
		}
	}
	return false
}

// checkReferences refuses lookups to records that do not exist.
func (s *Sim) checkReferences(ctx context.Context, tx pgx.Tx, ch *oppChanges, existing []string) error {
	if ch.account != "" {
		var ok bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM crm_sim.accounts WHERE id = $1)`, ch.account).Scan(&ok); err != nil {
			return err
		}
		if !ok {
			return fieldErr("INVALID_CROSS_REFERENCE_KEY", "invalid cross reference id: AccountId")
		}
	}
	if ch.owner != "" {
		var active *bool
		if err := tx.QueryRow(ctx, `SELECT (SELECT active FROM crm_sim.users WHERE id = $1)`, ch.owner).Scan(&active); err != nil {
			return err
		}
		if active == nil {
			return fieldErr("INVALID_CROSS_REFERENCE_KEY", "invalid cross reference id: OwnerId")
		}
		if !*active {
			return fieldErr("INACTIVE_OWNER_OR_USER", "operation performed with inactive user as owner")
		}
	}
	if ch.pb != "" {
		if ch.pb != standardPricebookID {
			return fieldErr("INVALID_CROSS_REFERENCE_KEY", "invalid cross reference id: Pricebook2Id")
		}
		if len(existing) == 1 {
			var other bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM crm_sim.opportunities o JOIN crm_sim.line_items l ON l.opportunity_id = o.id
				WHERE o.id = $1 AND o.pricebook_id IS DISTINCT FROM $2)`, existing[0], ch.pb).Scan(&other); err != nil {
				return err
			}
			if other {
				return fieldErr("FIELD_INTEGRITY_EXCEPTION", "field integrity exception: Pricebook2Id (the opportunity has products of another price book)")
			}
		}
	}
	return nil
}

// --- sObject Collections (line items) ------------------------------------------------

type collectionResult struct {
	ID      *string           `json:"id"`
	Success bool              `json:"success"`
	Errors  []collectionError `json:"errors"`
}

type collectionError struct {
	StatusCode string   `json:"statusCode"`
	Message    string   `json:"message"`
	Fields     []string `json:"fields"`
}

func failed(code, msg string, fields ...string) collectionResult {
	if fields == nil {
		fields = []string{}
	}
	return collectionResult{Errors: []collectionError{{StatusCode: code, Message: msg, Fields: fields}}}
}

func rolledBack(results []collectionResult) {
	for i := range results {
		if results[i].Success {
			results[i] = failed("ALL_OR_NONE_OPERATION_ROLLED_BACK", "Record rolled back because not all records were valid and the request was using AllOrNone header")
		}
	}
}

type lineInsert struct {
	id, opp, entry string
	qty, price     float64
	desc           string
}

// handleCollectionCreate is POST /composite/sobjects for OpportunityLineItem records.
func (s *Sim) handleCollectionCreate(w http.ResponseWriter, r *http.Request, _ string) {
	var body struct {
		AllOrNone bool             `json:"allOrNone"`
		Records   []map[string]any `json:"records"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<20))
	dec.UseNumber()
	if err := dec.Decode(&body); err != nil {
		writeErrors(w, fieldErr("JSON_PARSER_ERROR", "The request body is not valid JSON"))
		return
	}
	if len(body.Records) > 200 {
		writeErrors(w, fieldErr("EXCEEDED_ID_LIMIT", "record limit reached. cannot submit more than 200 records into this call"))
		return
	}
	ctx := r.Context()
	results := make([]collectionResult, len(body.Records))
	var ok []lineInsert
	err := pgx.BeginFunc(ctx, s.q(ctx), func(tx pgx.Tx) error {
		for i, rec := range body.Records {
			li, res := s.checkLine(ctx, tx, rec)
			if res != nil {
				results[i] = *res
				continue
			}
			li.id = s.nextID(ctx, tx, prefixLineItem)
			ok = append(ok, li)
			results[i] = collectionResult{ID: &li.id, Success: true, Errors: []collectionError{}}
		}
		if body.AllOrNone && len(ok) < len(body.Records) {
			rolledBack(results)
			return nil
		}
		for _, li := range ok {
			if _, err := tx.Exec(ctx, `INSERT INTO crm_sim.line_items (id, opportunity_id, entry_id, quantity, unit_price, description)
				VALUES ($1, $2, $3, $4, $5, $6)`, li.id, li.opp, li.entry, li.qty, li.price, li.desc); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE crm_sim.opportunities SET pricebook_id = COALESCE(pricebook_id, $2), updated_at = now() WHERE id = $1`,
				li.opp, standardPricebookID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		writeErrors(w, asSFError(err))
		return
	}
	writeJSON(w, http.StatusOK, results)
}

var lineFields = []string{"OpportunityId", "PricebookEntryId", "Quantity", "UnitPrice", "Description"}

func (s *Sim) checkLine(ctx context.Context, tx pgx.Tx, rec map[string]any) (lineInsert, *collectionResult) {
	var li lineInsert
	fail := func(code, msg string, fields ...string) (lineInsert, *collectionResult) {
		r := failed(code, msg, fields...)
		return li, &r
	}
	attrs, _ := rec["attributes"].(map[string]any)
	if t, _ := attrs["type"].(string); !strings.EqualFold(t, objLineItem) {
		return fail("INVALID_TYPE", fmt.Sprintf("The stand-in creates %s records only", objLineItem))
	}
	var price *float64
	for k, v := range rec {
		if k == "attributes" {
			continue
		}
		canon := ""
		for _, f := range lineFields {
			if strings.EqualFold(f, k) {
				canon = f
			}
		}
		if canon == "" {
			if _, known := s.schemas[strings.ToLower(objLineItem)].canonical(k); known {
				return fail("INVALID_FIELD_FOR_INSERT_UPDATE", "Unable to create/update fields: "+k+".", k)
			}
			return fail("INVALID_FIELD", fmt.Sprintf("No such column '%s' on sobject of type OpportunityLineItem", k), k)
		}
		switch canon {
		case "OpportunityId":
			li.opp, _ = v.(string)
		case "PricebookEntryId":
			li.entry, _ = v.(string)
		case "Description":
			li.desc, _ = v.(string)
			if utf8.RuneCountInString(li.desc) > 255 {
				return fail("STRING_TOO_LONG", "Line Description: data value too large (max length=255)", "Description")
			}
		case "Quantity", "UnitPrice":
			n, ok := v.(json.Number)
			x, err := n.Float64()
			if !ok || err != nil {
				return fail("JSON_PARSER_ERROR", "Cannot deserialize "+canon, canon)
			}
			if canon == "Quantity" {
				li.qty = x
			} else {
				price = &x
			}
		}
	}
	if li.opp == "" || li.entry == "" || li.qty == 0 {
		var missing []string
		for f, v := range map[string]bool{"OpportunityId": li.opp == "", "PricebookEntryId": li.entry == "", "Quantity": li.qty == 0} {
			if v {
				missing = append(missing, f)
			}
		}
		return fail("REQUIRED_FIELD_MISSING", "Required fields are missing: "+strings.Join(missing, ", "), missing...)
	}
	if li.qty < 0 {
		return fail("FIELD_INTEGRITY_EXCEPTION", "Quantity must be positive", "Quantity")
	}
	var extID string
	var locked bool
	err := tx.QueryRow(ctx, `SELECT o.external_id, EXISTS (SELECT 1 FROM crm_sim.locked_opportunities k WHERE k.external_id = o.external_id)
		FROM crm_sim.opportunities o WHERE o.id = $1`, li.opp).Scan(&extID, &locked)
	if err != nil {
		return fail("INVALID_CROSS_REFERENCE_KEY", "invalid cross reference id", "OpportunityId")
	}
	if locked {
		return fail("ENTITY_IS_LOCKED", "the entity is locked for editing")
	}
	var listPrice float64
	var active bool
	if err := tx.QueryRow(ctx, `SELECT unit_price::float8, active FROM crm_sim.products WHERE entry_id = $1`, li.entry).Scan(&listPrice, &active); err != nil {
		return fail("INVALID_CROSS_REFERENCE_KEY", "invalid cross reference id", "PricebookEntryId")
	}
	if !active {
		return fail("FIELD_INTEGRITY_EXCEPTION", "field integrity exception: PricebookEntryId (pricebook entry is inactive)", "PricebookEntryId")
	}
	li.price = listPrice
	if price != nil {
		li.price = *price
	}
	return li, nil
}

// handleCollectionDelete is DELETE /composite/sobjects?ids=...&allOrNone=...
func (s *Sim) handleCollectionDelete(w http.ResponseWriter, r *http.Request, _ string) {
	var ids []string
	for _, id := range strings.Split(r.URL.Query().Get("ids"), ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		writeErrors(w, fieldErr("MALFORMED_ID", "ids is required"))
		return
	}
	if len(ids) > 200 {
		writeErrors(w, fieldErr("EXCEEDED_ID_LIMIT", "record limit reached. cannot submit more than 200 records into this call"))
		return
	}
	allOrNone, _ := strconv.ParseBool(r.URL.Query().Get("allOrNone"))
	ctx := r.Context()
	results := make([]collectionResult, len(ids))
	err := pgx.BeginFunc(ctx, s.q(ctx), func(tx pgx.Tx) error {
		var okIDs []string
		for i, id := range ids {
			var locked bool
			err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM crm_sim.locked_opportunities k JOIN crm_sim.opportunities o ON o.external_id = k.external_id
				WHERE o.id = l.opportunity_id) FROM crm_sim.line_items l WHERE l.id = $1`, id).Scan(&locked)
			switch {
			case err != nil:
				results[i] = failed("ENTITY_IS_DELETED", "entity is deleted")
			case locked:
				results[i] = failed("ENTITY_IS_LOCKED", "the entity is locked for editing")
			default:
				idCopy := id
				results[i] = collectionResult{ID: &idCopy, Success: true, Errors: []collectionError{}}
				okIDs = append(okIDs, id)
			}
		}
		if allOrNone && len(okIDs) < len(ids) {
			rolledBack(results)
			return nil
		}
		_, err := tx.Exec(ctx, `DELETE FROM crm_sim.line_items WHERE id = ANY($1)`, okIDs)
		return err
	})
	if err != nil {
		writeErrors(w, asSFError(err))
		return
	}
	writeJSON(w, http.StatusOK, results)
}
