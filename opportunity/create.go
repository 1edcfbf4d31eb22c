package opportunity

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"oportuna/cnpj"
	"oportuna/geo"
	"oportuna/internal/calendar"
)

// Messages of the create form (spec §5, §8).
const (
	MsgMissingFields = "Campos obrigatórios ausentes!"
	MsgInvalidPhone  = "Numero inválido"
	MsgInvalidCEP    = "CEP inválido"
	MsgInvalidCNPJ   = "CNPJ inválido! Por favor digite um CNPJ válido!"
	MsgInvalidEmail  = "Email inválido"
	MsgInvalidPrice  = "Preço inválido"
)

// PartnerSoftware is the software-owner option that requires a partner name.
const PartnerSoftware = "Software de Parceiros"

// NoSellerBrand is the company whose registrations need no seller (spec: 'yep').
const NoSellerBrand = "yep"

// Origins are the wire values of the opportunity origin.
var Origins = []string{"Employee", "Partner", "Trade Show", "Email", "Prospect", "LeadGrupoArtico", "ResaleWebsite", "Other"}

// flexString reads a JSON string or number ("cep": 1310100 or "01310-100").
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = flexString(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("valor inválido")
	}
	*f = flexString(n.String())
	return nil
}

// flexBool reads true, "true" or "false".
type flexBool bool

func (f *flexBool) UnmarshalJSON(b []byte) error {
	switch strings.Trim(strings.ToLower(string(b)), `"`) {
	case "true":
		*f = true
	case "false", "", "null":
		*f = false
	default:
		return fmt.Errorf("valor inválido")
	}
	return nil
}

// flexInt reads 25 or "25".
type flexInt int

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		*f = 0
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("valor inválido")
	}
	*f = flexInt(n)
	return nil
}

// CreatePayload is the body of POST /opportunity/create (spec §3 "Create-opportunity payload").
type CreatePayload struct {
	Name               string         `json:"name"`
	Justification      string         `json:"justification"`
	CNPJ               string         `json:"cnpj"`
	Contact            string         `json:"contact"`
	Network            string         `json:"network"`
	Email              string         `json:"email"`
	FantasyName        string         `json:"fantasyName"`
	CorporateName      string         `json:"corporateName"`
	Street             string         `json:"street"`
	CEP                flexString     `json:"cep"`
	City               string         `json:"city"`
	State              string         `json:"state"`
	ProbabilityClosing flexInt        `json:"probabilityClosing"`
	AcceptedTerm       flexBool       `json:"acceptedTerm"`
	Country            string         `json:"country"`
	Phone              flexString     `json:"phone"`
	Seller             string         `json:"seller"`
	SellerSalesforceID string         `json:"sellerSalesforceId"`
	Company            string         `json:"company"`
	OpportunityOrigin  string         `json:"opportunityOrigin"`
	Projects           []Project      `json:"projects"`
	Products           []ProductInput `json:"products"`
	RequestID          string         `json:"requestId"`
}

// ProductInput is a product line as the form sends it (amount and price may be strings).
type ProductInput struct {
	PartNumber  string     `json:"partNumber"`
	Description string     `json:"description"`
	Amount      flexString `json:"amount"`
	Price       flexString `json:"price"`
	Accessory   flexBool   `json:"accessory"`
	Competition flexBool   `json:"competition"`
}

var (
	emailRE  = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[A-Za-z]{2,4}$`)
	nonDigit = regexp.MustCompile(`\D`)
)

func digits(s string) string { return nonDigit.ReplaceAllString(s, "") }

// Check validates the payload for the brand at the instant now and returns the
// record to register, or the fields that failed with the form's labels.
func (p CreatePayload) Check(brandSlug string, now time.Time) (Record, []FieldError) {
	var errs []FieldError
	req := func(field, label, v string) {
		if strings.TrimSpace(v) == "" {
			errs = append(errs, FieldError{field, label, MsgRequired})
		}
	}
	req("contact", "Nome do contato", p.Contact)
	req("network", "Faz parte de um grupo/rede?", p.Network)
	req("corporateName", "Razão social", p.CorporateName)
	req("street", "Endereço", p.Street)
	req("city", "Cidade", p.City)
	req("state", "Estado", p.State)
	cep, cepOK := geo.ParseCEP(string(p.CEP))
	switch {
	case strings.TrimSpace(string(p.CEP)) == "":
		errs = append(errs, FieldError{"cep", "CEP", MsgRequired})
	case !cepOK:
		errs = append(errs, FieldError{"cep", "CEP", MsgInvalidCEP})
	}

	phone := digits(string(p.Phone))
	switch {
	case phone == "":
		errs = append(errs, FieldError{"phone", "Telefone", MsgRequired})
	case (len(phone) != 10 && len(phone) != 11) || strings.Trim(phone, "0") == "":
		errs = append(errs, FieldError{"phone", "Telefone", MsgInvalidPhone})
	}
	email := strings.TrimSpace(p.Email)
	if email == "" {
		errs = append(errs, FieldError{"email", "Email do cliente", MsgRequired})
	} else if !emailRE.MatchString(email) {
		errs = append(errs, FieldError{"email", "Email do cliente", MsgInvalidEmail})
	}
	doc := cnpj.Normalize(p.CNPJ)
	if doc == "" {
		errs = append(errs, FieldError{"cnpj", "CNPJ", MsgRequired})
	} else if !cnpj.Valid(doc) {
		errs = append(errs, FieldError{"cnpj", "CNPJ", MsgInvalidCNPJ})
	}
	if !bool(p.AcceptedTerm) {
		errs = append(errs, FieldError{"acceptedTerm", "Aceite dos termos", MsgRequired})
	}
	if brandSlug != NoSellerBrand {
		req("seller", "Vendedor", p.Seller)
	}
	prob := int(p.ProbabilityClosing)
	if prob == 0 {
		prob = DefaultProbability
	}
	if _, ok := Probabilities[prob]; !ok {
		errs = append(errs, FieldError{"probabilityClosing", "Probabilidade de fechamento", "Probabilidade de fechamento inválida."})
	}

	var project Project
	if len(p.Projects) > 0 {
		project = p.Projects[0]
	}
	req("aplication", "Aplicação", project.Aplication)
	req("specification", "Especificação", project.Specification)
	if project.Homologated == nil {
		errs = append(errs, FieldError{"homologated", "Produto homologado?", MsgRequired})
	}
	if project.HaveCollector == nil {
		errs = append(errs, FieldError{"haveCollector", "Possui equipamento similar?", MsgRequired})
	}
	if project.Partner == nil {
		errs = append(errs, FieldError{"partner", "Possui parceiro de software?", MsgRequired})
	} else if *project.Partner {
		req("partnerOwner", "Proprietário do software", project.PartnerOwner)
		if project.PartnerOwner == PartnerSoftware {
			req("partnerName", "Nome do parceiro", project.PartnerName)
		}
	}
	req("opportunityType", "Tipo de órgão", project.OpportunityType)
	if strings.EqualFold(project.OpportunityType, "public") {
		req("opportunityTypeStatus", "Situação do órgão público", project.OpportunityTypeStatus)
	}
	origin := project.OpportunityOrigin
	if origin == "" {
		origin = p.OpportunityOrigin
	}
	if origin == "" {
		errs = append(errs, FieldError{"opportunityOrigin", "Origem da oportunidade", MsgRequired})
	} else if !contains(Origins, origin) {
		errs = append(errs, FieldError{"opportunityOrigin", "Origem da oportunidade", "Origem da oportunidade inválida."})
	}
	project.OpportunityOrigin = origin
	if strings.TrimSpace(project.ConclusionDate) == "" {
		errs = append(errs, FieldError{"conclusionDate", "Data de conclusão", MsgRequired})
	} else if d, ok := ParseDate(project.ConclusionDate); !ok || !d.After(calendar.Date(now)) {
		errs = append(errs, FieldError{"conclusionDate", "Data de conclusão", MsgConclusionDate})
	} else {
		project.ConclusionDate = d.Format("2006-01-02")
	}

	// Product lines: a line counts when it has a part number or a description.
	var products []Product
	mainSeen := false
	for i, in := range p.Products {
		if strings.TrimSpace(in.PartNumber) == "" && strings.TrimSpace(in.Description) == "" {
			continue
		}
		line := Product{PartNumber: strings.TrimSpace(in.PartNumber), Description: strings.TrimSpace(in.Description),
			Accessory: bool(in.Accessory), Competition: bool(in.Competition)}
		main := !line.Accessory && !line.Competition
		label := fmt.Sprintf("Produto %d", i+1)
		if amount, err := strconv.ParseInt(strings.TrimSpace(string(in.Amount)), 10, 64); err == nil && amount >= 0 {
			line.Amount = amount
		} else if strings.TrimSpace(string(in.Amount)) != "" {
			errs = append(errs, FieldError{"products", label + ": quantidade", "Quantidade inválida."})
		}
		if strings.TrimSpace(string(in.Price)) != "" {
			price, err := ParseMoney(string(in.Price))
			if err != nil || price < 0 {
				errs = append(errs, FieldError{"products", label + ": preço", MsgInvalidPrice})
			}
			line.Price = price
		}
		if main && !mainSeen {
			mainSeen = true
			req("partNumber", "Part number do produto", line.PartNumber)
			req("description", "Descrição do produto", line.Description)
			if line.Amount <= 0 {
				errs = append(errs, FieldError{"amount", "Quantidade do produto", MsgRequired})
			}
			if line.Price == 0 {
				errs = append(errs, FieldError{"price", "Preço do produto", MsgRequired})
			}
		}
		products = append(products, line)
	}
	if !mainSeen {
		errs = append(errs, FieldError{"partNumber", "Part number do produto", MsgRequired},
			FieldError{"description", "Descrição do produto", MsgRequired},
			FieldError{"amount", "Quantidade do produto", MsgRequired},
			FieldError{"price", "Preço do produto", MsgRequired})
	}
	if len(errs) > 0 {
		return Record{}, errs
	}
	fantasy := strings.TrimSpace(p.FantasyName)
	if fantasy == "" {
		fantasy = "N/C"
	}
	name := strings.TrimSpace(p.Name)
	if name == "" {
		// spec §9: 'Oportunidade {company} - {date}', the customer company and today's date.
		company := fantasy
		if company == "N/C" {
			company = strings.TrimSpace(p.CorporateName)
		}
		name = "Oportunidade " + company + " - " + calendar.Format(now)
	}
	return Record{
		Name: name, CNPJ: doc, Contact: strings.TrimSpace(p.Contact), Phone: phone, Email: email,
		Network: p.Network, FantasyName: fantasy, CorporateName: strings.TrimSpace(p.CorporateName),
		Street: strings.TrimSpace(p.Street), State: strings.TrimSpace(p.State), City: strings.TrimSpace(p.City),
		CEP: cep, Country: "Brasil", ProbabilityClosing: prob, Seller: strings.TrimSpace(p.Seller),
		SellerSalesforceID: strings.TrimSpace(p.SellerSalesforceID), AcceptedTerm: true,
		Projects: []Project{project}, Products: products, Estimated: Estimated(products),
	}, nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
