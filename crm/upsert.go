package crm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"oportuna/cnpj"
	"oportuna/opportunity"
)

// maxCollections is how many sObject Collections (and query) subrequests
// Salesforce accepts in one Composite call.
const maxCollections = 5

type existingOpportunity struct {
	ID        string `json:"Id"`
	IsClosed  bool   `json:"IsClosed"`
	StageName string `json:"StageName"`
}

type pricebookEntry struct {
	ID           string `json:"Id"`
	ProductCode  string `json:"ProductCode"`
	Pricebook2ID string `json:"Pricebook2Id"`
}

// UpsertOpportunity finds the customer's Account, upserts the opportunity by
// our external id and replaces its line items when they changed. It returns the
// CRM's record id. Repeating it after any failure converges to one record with
// the lines given.
//
// It makes at most two HTTP requests (the OAuth token is cached and asked for
// only when there is none or the org refused it):
//
//  1. a Composite call of queries (allOrNone false, nothing written): the
//     customer's Accounts by CNPJ, the opportunities holding our id and their
//     line items, the price-book entries of the part numbers, the seller;
//  2. a Composite call with allOrNone: the upsert by external id (PATCH), and,
//     only when the lines differ from what the CRM holds, the delete of the old
//     lines and the insert of the new ones (sObject Collections, the new
//     record's id referenced as @{opp.id}). Everything or nothing is written.
//
// Nothing is written (one request) when the record is closed at the stage we
// write. More than 5 sObject Collections (over 400 lines) continue in further
// Composite calls.
func (s *Salesforce) UpsertOpportunity(ctx context.Context, o Opportunity) (string, error) {
	doc := cnpj.Normalize(o.CustomerDoc)
	if doc == "" {
		return "", fmt.Errorf("%w: empty CNPJ", ErrCustomerNotFound)
	}
	f := s.cfg.Fields
	ext := f.OpportunityExternalID
	s.mu.Lock()
	pb := s.pricebook
	s.mu.Unlock()

	// 1. Read.
	subs := []Subrequest{
		{Method: http.MethodGet, ReferenceID: "account", URL: s.queryURL(accountSOQL(f.AccountCNPJ, doc))},
		{Method: http.MethodGet, ReferenceID: "existing", URL: s.queryURL(fmt.Sprintf(
			"SELECT Id, IsClosed, StageName FROM Opportunity WHERE %s = %s LIMIT 2", ext, Quote(o.ID)))},
		{Method: http.MethodGet, ReferenceID: "lines", URL: s.queryURL(fmt.Sprintf(
			"SELECT Id, PricebookEntryId, Quantity, UnitPrice, Description FROM OpportunityLineItem WHERE Opportunity.%s = %s ORDER BY Id",
			ext, Quote(o.ID)))},
	}
	if codes := productCodes(o.Lines, s.cfg.GenericProductCode); len(o.Lines) > 0 && len(codes) > 0 {
		book := "Pricebook2.IsStandard = true"
		if pb != "" {
			book = "Pricebook2Id = " + Quote(pb)
		}
		subs = append(subs, Subrequest{Method: http.MethodGet, ReferenceID: "entries", URL: s.queryURL(fmt.Sprintf(
			"SELECT Id, ProductCode, Pricebook2Id FROM PricebookEntry WHERE %s AND IsActive = true AND ProductCode IN (%s)",
			book, strings.Join(codes, ", ")))})
	}
	checkSeller := f.OpportunitySeller != "" && o.SellerCRMID != ""
	if checkSeller && recordID.MatchString(o.SellerCRMID) {
		subs = append(subs, Subrequest{Method: http.MethodGet, ReferenceID: "seller", URL: s.queryURL(
			"SELECT Id FROM User WHERE Id = " + Quote(o.SellerCRMID) + " AND IsActive = true LIMIT 1")})
	}
	read, err := s.Composite(ctx, false, subs)
	if err != nil {
		return "", err
	}

	accounts, err := decodeQuery[struct{ Id string }](ctx, s, read["account"])
	switch {
	case err != nil:
		return "", err
	case len(accounts) == 0:
		return "", fmt.Errorf("%w: no Account with %s %s", ErrCustomerNotFound, f.AccountCNPJ, cnpj.Format(doc))
	case len(accounts) > 1:
		return "", fmt.Errorf("%w: several Accounts with %s %s (%s, %s)", ErrMultipleMatches, f.AccountCNPJ, cnpj.Format(doc), accounts[0].Id, accounts[1].Id)
	}
	prevs, err := decodeQuery[existingOpportunity](ctx, s, read["existing"])
	switch {
	case err != nil:
		return "", err
	case len(prevs) > 1:
		return "", newAPIError(http.StatusMultipleChoices, "MULTIPLE_CHOICES", fmt.Sprintf("%d records hold %s %s: %s, %s",
			len(prevs), ext, o.ID, prevs[0].ID, prevs[1].ID))
	}
	var prev *existingOpportunity
	if len(prevs) == 1 {
		prev = &prevs[0]
	}
	stage := s.stage(o.Status)
	if prev != nil && prev.IsClosed {
		switch {
		case strings.EqualFold(prev.StageName, stage):
			// Already closed at the stage we write (an expiry synced again after
			// a lost answer): nothing to change.
			return prev.ID, nil
		case o.Reopen && strings.EqualFold(prev.StageName, s.stage(opportunity.Expired)):
			// A renewal approved after the portal closed the record at its expiry.
			slog.InfoContext(ctx, "crm: reopening the opportunity closed at its expiry", "opportunity", o.ID, "crm_id", prev.ID, "stage", stage)
		default:
			return "", fmt.Errorf("%w: opportunity %s is %q in the CRM", ErrLocked, prev.ID, prev.StageName)
		}
	}
	body := map[string]any{
		"Name":        truncate(o.Name, 120),
		"AccountId":   accounts[0].Id,
		"StageName":   stage,
		"CloseDate":   o.CloseDate.Format("2006-01-02"),
		"Probability": o.Probability,
		"Description": truncate(o.Description, 32000),
	}
	var lines []lineRecord
	if len(o.Lines) > 0 {
		var entries []pricebookEntry
		if r, ok := read["entries"]; ok {
			if entries, err = decodeQuery[pricebookEntry](ctx, s, r); err != nil {
				return "", err
			}
		}
		if lines, err = s.lineRecords(entries, o.Lines); err != nil {
			return "", err
		}
		if pb == "" && len(entries) > 0 {
			pb = entries[0].Pricebook2ID
			s.mu.Lock()
			s.pricebook = pb
			s.mu.Unlock()
		}
		if pb == "" {
			return "", fmt.Errorf("crm: the CRM has no active entry of the standard price book for %s; set SALESFORCE_PRICEBOOK_ID", o.ID)
		}
		body["Pricebook2Id"] = pb
	} else {
		body["Amount"] = json.Number(o.Amount.String())
	}
	if f.OpportunityBrand != "" {
		body[f.OpportunityBrand] = o.Brand
	}
	if f.OpportunityReseller != "" && o.Reseller != "" {
		body[f.OpportunityReseller] = truncate(o.Reseller, 255)
	}
	if checkSeller {
		active := false
		if r, ok := read["seller"]; ok {
			users, err := decodeQuery[struct{ Id string }](ctx, s, r)
			if err != nil {
				return "", err
			}
			active = len(users) == 1
		}
		if active {
			body[f.OpportunitySeller] = o.SellerCRMID
		} else {
			slog.WarnContext(ctx, "crm: the seller is not an active CRM user; the opportunity keeps its owner", "opportunity", o.ID, "seller", o.SellerCRMID)
		}
	}
	have, err := decodeQuery[lineRecord](ctx, s, read["lines"])
	if err != nil {
		return "", err
	}

	// 2. Write: the upsert and, when they changed, the lines, all or none.
	var collections []func(oppID string) Subrequest
	if (len(lines) > 0 || prev != nil) && !sameLines(have, lines) {
		collections = s.replaceLines(have, lines)
	}
	id := ""
	if prev != nil {
		id = prev.ID
	}
	oppRef := id
	if oppRef == "" {
		oppRef = "@{opp.id}"
	}
	batch := []Subrequest{{Method: http.MethodPatch, URL: s.oppPath(o.ID), ReferenceID: "opp", Body: body}}
	for first := true; first || len(collections) > 0; first = false {
		n := min(len(collections), maxCollections)
		for _, c := range collections[:n] {
			batch = append(batch, c(oppRef))
		}
		collections = collections[n:]
		res, err := s.Composite(ctx, true, batch)
		if err != nil {
			return "", err
		}
		if err := compositeError(batch, res); err != nil {
			return "", overlapping(err, ext)
		}
		if first {
			var up struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(res["opp"].Body, &up)
			if up.ID != "" {
				id = up.ID // 201 created, or 200 updated (API 46.0+); 204 (older): the id read before
			}
			if id == "" {
				return "", fmt.Errorf("crm: upsert of %s answered %d without a record id", o.ID, res["opp"].HTTPStatusCode)
			}
			oppRef = id
		}
		batch = nil
	}
	slog.InfoContext(ctx, "crm: opportunity upserted", "opportunity", o.ID, "crm_id", id, "created", prev == nil, "lines", len(lines))
	return id, nil
}

// overlapping makes a DUPLICATE_VALUE on our external id retryable
// (ErrUnavailable): Salesforce answers it when two upserts of one external id
// overlap, typically an attempt that timed out here while its write still ran
// inside the org, and the retry that followed. The remedy is to try again: the
// next attempt reads the record the other write made and updates it. A
// DUPLICATE_VALUE that names another unique field stays permanent.
func overlapping(err error, ext string) error {
	var e *APIError
	if errors.As(err, &e) && e.Code == CodeDuplicateValue && e.kind == nil {
		if f := duplicateField(e.Message); f == "" || strings.EqualFold(f, ext) {
			e.kind = ErrUnavailable
		}
	}
	return err
}

// duplicateField is the field a DUPLICATE_VALUE message names ("duplicate
// value found: Oportuna_Id__c duplicates value on record with id: 006…"), or "".
func duplicateField(msg string) string {
	_, rest, ok := strings.Cut(msg, "duplicate value found:")
	if !ok {
		return ""
	}
	f, _, ok := strings.Cut(strings.TrimSpace(rest), " ")
	if !ok {
		return ""
	}
	return f
}

// accountSOQL finds the Accounts holding the CNPJ, masked or not.
func accountSOQL(field, doc string) string {
	return fmt.Sprintf("SELECT Id, Name FROM Account WHERE %s IN (%s, %s) LIMIT 2", field, Quote(doc), Quote(cnpj.Format(doc)))
}

// FindAccount returns the Id of the one Account holding the CNPJ, masked or not.
func (s *Salesforce) FindAccount(ctx context.Context, doc string) (string, error) {
	doc = cnpj.Normalize(doc)
	if doc == "" {
		return "", fmt.Errorf("%w: empty CNPJ", ErrCustomerNotFound)
	}
	f := s.cfg.Fields.AccountCNPJ
	recs, err := queryAs[struct{ Id, Name string }](ctx, s, accountSOQL(f, doc))
	switch {
	case err != nil:
		return "", err
	case len(recs) == 0:
		return "", fmt.Errorf("%w: no Account with %s %s", ErrCustomerNotFound, f, cnpj.Format(doc))
	case len(recs) > 1:
		return "", fmt.Errorf("%w: several Accounts with %s %s (%s, %s)", ErrMultipleMatches, f, cnpj.Format(doc), recs[0].Id, recs[1].Id)
	}
	return recs[0].Id, nil
}

// productCodes are the quoted product codes to look up: the lines' part
// numbers and the generic product's.
func productCodes(items []LineItem, generic string) []string {
	seen := map[string]bool{}
	var list []string
	add := func(c string) {
		if k := strings.ToUpper(strings.TrimSpace(c)); k != "" && !seen[k] {
			seen[k] = true
			list = append(list, Quote(strings.TrimSpace(c)))
		}
	}
	for _, it := range items {
		add(it.PartNumber)
	}
	add(generic)
	return list
}

// lineRecords finds the price-book entry of each line: its part number's
// product, else the generic product (which then carries the part number in the
// line's description).
func (s *Salesforce) lineRecords(found []pricebookEntry, items []LineItem) ([]lineRecord, error) {
	entries := map[string]string{} // upper-cased product code → entry id
	for _, r := range found {
		k := strings.ToUpper(r.ProductCode)
		if _, dup := entries[k]; !dup {
			entries[k] = r.ID
		}
	}
	generic := entries[strings.ToUpper(s.cfg.GenericProductCode)]
	var out []lineRecord
	for _, it := range items {
		if it.Quantity <= 0 {
			continue
		}
		desc := strings.TrimSpace(it.Description)
		entry := entries[strings.ToUpper(strings.TrimSpace(it.PartNumber))]
		if entry == "" {
			if generic == "" {
				return nil, fmt.Errorf("crm: part number %q is not in the price book and the generic product %q is missing", it.PartNumber, s.cfg.GenericProductCode)
			}
			entry = generic
			if pn := strings.TrimSpace(it.PartNumber); pn != "" {
				desc = strings.TrimSpace(pn + " — " + desc)
			}
		}
		if it.Accessory {
			desc = "[Acessório] " + desc
		}
		price, _ := json.Number(it.UnitPrice.String()).Float64()
		out = append(out, lineRecord{PricebookEntryID: entry, Quantity: float64(it.Quantity), UnitPrice: price, Description: truncate(desc, 255)})
	}
	return out, nil
}

// replaceLines are the sObject Collections subrequests that make the
// opportunity's lines the wanted ones: delete the old lines, insert the new
// ones, 200 records per subrequest. Each is made for the opportunity's id (or
// a reference to it).
func (s *Salesforce) replaceLines(have, want []lineRecord) []func(oppID string) Subrequest {
	var out []func(string) Subrequest
	for i := 0; i < len(have); i += 200 {
		chunk := have[i:min(i+200, len(have))]
		ids := make([]string, len(chunk))
		for j, l := range chunk {
			ids[j] = l.ID
		}
		ref := fmt.Sprintf("delete%d", i/200)
		out = append(out, func(string) Subrequest {
			return Subrequest{Method: http.MethodDelete, ReferenceID: ref,
				URL: s.dataPath("/composite/sobjects?allOrNone=true&ids=" + strings.Join(ids, ","))}
		})
	}
	type record struct {
		Attributes map[string]string `json:"attributes"`
		OppID      string            `json:"OpportunityId"`
		lineRecord
	}
	for i := 0; i < len(want); i += 200 {
		chunk := want[i:min(i+200, len(want))]
		ref := fmt.Sprintf("insert%d", i/200)
		out = append(out, func(oppID string) Subrequest {
			recs := make([]record, len(chunk))
			for j, l := range chunk {
				l.ID = ""
				recs[j] = record{Attributes: map[string]string{"type": "OpportunityLineItem"}, OppID: oppID, lineRecord: l}
			}
			return Subrequest{Method: http.MethodPost, ReferenceID: ref, URL: s.dataPath("/composite/sobjects"),
				Body: map[string]any{"allOrNone": true, "records": recs}}
		})
	}
	return out
}
