package opportunity

import "time"

// Probability bands of spec §3 "Probability of closing"; 25 is the default.
var Probabilities = map[int]string{25: "0% - 49%", 50: "50% - 70%", 75: "71% - 99%", 100: "100%"}

// DefaultProbability is a new opportunity's probability of closing.
const DefaultProbability = 25

// Project is the one project of an opportunity (spec §3 "Project").
type Project struct {
	Aplication               string `json:"aplication"`
	Specification            string `json:"specification"`
	Homologated              *bool  `json:"homologated"`
	HaveCollector            *bool  `json:"haveCollector"`
	HaveCollectorDescription string `json:"haveCollectorDescription"`
	Partner                  *bool  `json:"partner"`
	PartnerOwner             string `json:"partnerOwner"`
	PartnerName              string `json:"partnerName"`
	OpportunityType          string `json:"opportunityType"`
	OpportunityTypeStatus    string `json:"opportunityTypeStatus"`
	AdditionalInformation    string `json:"additionalInformation"`
	ConclusionDate           string `json:"conclusionDate"` // ISO date
	OpportunityOrigin        string `json:"opportunityOrigin"`
	Justification            string `json:"justification"`
}

// Product is a product line (spec §3 "Product line").
type Product struct {
	PartNumber  string `json:"partNumber"`
	Description string `json:"description"`
	Amount      int64  `json:"amount"`
	Price       Money  `json:"price"`
	Accessory   bool   `json:"accessory"`
	Competition bool   `json:"competition"`
}

// Estimated is the sum of amount × price over the lines that are not a competitor's.
func Estimated(products []Product) Money {
	var total Money
	for _, p := range products {
		if !p.Competition {
			total += Money(p.Amount) * p.Price
		}
	}
	return total
}

// RenewalRequest is what a reseller or seller sends to ask for a renewal.
type RenewalRequest struct {
	Reason              string `json:"reason"`
	ProbabilityClosing  int    `json:"probabilityClosing"`
	ProjectStillInScope string `json:"projectStillInScope"` // "Sim" or "Não"
	LastVisitDate       string `json:"lastVisitDate"`       // ISO date
	ProposalSent        string `json:"proposalSent,omitempty"`
	ProductHomologated  string `json:"productHomologated,omitempty"`
	NextStep            string `json:"nextStep,omitempty"`
}

// Record is an opportunity as stored and shown (spec §3 "Opportunity").
type Record struct {
	ID                  string     `json:"id"`
	Brand               string     `json:"brandId"`
	Status              Status     `json:"status"`
	Name                string     `json:"name"`
	CNPJ                string     `json:"cnpj"`
	Contact             string     `json:"contact"`
	Phone               string     `json:"phone"`
	Email               string     `json:"email"`
	Network             string     `json:"network"`
	FantasyName         string     `json:"fantasyName"`
	CorporateName       string     `json:"corporateName"`
	Street              string     `json:"street"`
	State               string     `json:"state"`
	City                string     `json:"city"`
	CEP                 string     `json:"cep"`
	Country             string     `json:"country"`
	ProbabilityClosing  int        `json:"probabilityClosing"`
	Seller              string     `json:"seller"`
	SellerSalesforceID  string     `json:"sellerSalesforceId"`
	Estimated           Money      `json:"estimated"`
	Register            string     `json:"register"`
	Reason              string     `json:"reason"`
	AcceptedTerm        bool       `json:"acceptedTerm"`
	ApproveDate         *time.Time `json:"approveDate"`
	ValidUntil          *time.Time `json:"validUntil"`
	RenovationDate      *time.Time `json:"renovationDate"`
	RequestRenovationAt *time.Time `json:"requestRenovationAt"`
	LastVisitDate       string     `json:"lastVisitDate"`
	ProjectStillInScope string     `json:"projectStillInScope"`
	// The renewal request's other answers (spec §4), for the representative.
	ProposalSent       string    `json:"proposalSent"`
	ProductHomologated string    `json:"productHomologated"`
	NextStep           string    `json:"nextStep"`
	UserID             string    `json:"userId"`
	UserName           string    `json:"userName"`
	UserEmail          string    `json:"userEmail"`
	ResaleID           string    `json:"resaleId"`
	Resale             string    `json:"resale"`
	IsDeleted          bool      `json:"isDeleted"` // an operator cancelled its workflow
	CreatedAt          time.Time `json:"createdAt"`
	Projects           []Project `json:"projects"`
	Products           []Product `json:"products"`

	// Conflicts are the other open registrations of the same customer at the
	// brand (conflict.go), for the representative and support; HasConflicts
	// says whether there are any, for every role (the API fills both).
	Conflicts    []Conflict `json:"conflicts"`
	HasConflicts bool       `json:"hasConflicts"`
	// RegisteredConflicts are the open registrations of the same CNPJ the
	// registration found (the stored conflicts column; the workflow keeps them).
	RegisteredConflicts []string `json:"-"`
}
