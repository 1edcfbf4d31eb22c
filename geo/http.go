package geo

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"

	"oportuna/internal/respond"
)

// MsgUnknownState answers a cities request for a state that does not exist.
const MsgUnknownState = "Estado não encontrado. Informe a sigla (ex.: MG) ou o código IBGE (ex.: 31)."

// CacheControl is sent with every answer: the tables change only with a release.
const CacheControl = "public, max-age=86400"

// Routes serves, relative to where it is mounted (the API mounts it at /api/geo):
//
//	GET /states             → [{"id":31,"sigla":"MG","nome":"Minas Gerais","regiao":{...}}] by name
//	GET /states/{uf}/cities → [{"id":3106200,"nome":"Belo Horizonte"}] by name, accents ignored
//
// {uf} is a sigla (MG, mg) or an IBGE state code (31). No session is needed.
func Routes() http.Handler {
	r := chi.NewRouter()
	r.Get("/states", StatesHandler)
	r.Get("/states/{uf}/cities", CitiesHandler)
	return r
}

type body struct {
	json []byte
	etag string
}

var (
	bodiesOnce sync.Once
	statesBody body
	citiesBody map[string]body // by sigla
)

func newBody(v any) body {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // plain structs of strings and ints
	}
	sum := sha256.Sum256(b)
	return body{json: b, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
}

func bodies() {
	bodiesOnce.Do(func() {
		statesBody = newBody(States())
		citiesBody = map[string]body{}
		for _, s := range states {
			list, _ := Cities(s.Sigla)
			citiesBody[s.Sigla] = newBody(list)
		}
	})
}

func serve(w http.ResponseWriter, r *http.Request, b body) {
	h := w.Header()
	h.Set("Cache-Control", CacheControl)
	h.Set("ETag", b.etag)
	h.Set("Vary", "Accept-Encoding")
	for _, tag := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		if t := strings.TrimSpace(tag); t == b.etag || t == "W/"+b.etag || t == "*" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.json)
}

// StatesHandler answers the 27 federative units ordered by name.
func StatesHandler(w http.ResponseWriter, r *http.Request) {
	bodies()
	serve(w, r, statesBody)
}

// CitiesHandler answers the municipalities of the state in the {uf} URL
// parameter, or 404 with MsgUnknownState.
func CitiesHandler(w http.ResponseWriter, r *http.Request) {
	bodies()
	uf := chi.URLParam(r, "uf")
	s, ok := stateByParam(uf)
	if !ok {
		respond.Error(w, http.StatusNotFound, MsgUnknownState)
		return
	}
	serve(w, r, citiesBody[s.Sigla])
}

// stateByParam accepts a sigla or a numeric code only (not names: the URL is
// an API, not a search box).
func stateByParam(uf string) (State, bool) {
	uf = strings.ToUpper(strings.TrimSpace(uf))
	if len(uf) != 2 {
		return State{}, false
	}
	s, ok := load().byUF[uf]
	return s, ok
}
