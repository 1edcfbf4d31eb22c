package api

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"

	"oportuna/brand"
	"oportuna/internal/pdf"
)

// Slide is one carousel image of the login page. The image is the backdrop;
// its title and text are the page's own HTML (they reflow at any width and are
// never cropped with the picture).
type Slide struct {
	URL   string `json:"url"`
	Alt   string `json:"alt"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

var slideTexts = [][2]string{
	{"Registre suas oportunidades", "Proteja cada negociação com o registro no portal."},
	{"Aprovação pelo representante", "Acompanhe a análise e receba a resposta por e-mail."},
	{"90 dias de validade", "Renove o registro antes de expirar e siga vendendo."},
}

// slideSVG is a slide's backdrop: the brand's gradient and a bar chart in the
// upper right, clear of the text the page lays over its lower left.
var slideSVG = template.Must(template.New("slide").Parse(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600" aria-hidden="true">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="{{.Primary}}"/><stop offset="1" stop-color="{{.Secondary}}"/></linearGradient></defs>
<rect width="800" height="600" fill="url(#g)"/>
<g fill="#ffffff" fill-opacity="0.12">{{range .Bars}}<rect x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}" rx="6"/>{{end}}</g>
</svg>`))

type bar struct{ X, Y, W, H int }

// carouselSVG draws slide n (1-based) of a brand.
func carouselSVG(b *brand.Brand, n int) ([]byte, bool) {
	if n < 1 || n > len(slideTexts) {
		return nil, false
	}
	var bars []bar
	for i := 0; i < 9; i++ {
		h := 60 + ((i*37+n*53)%5)*40
		bars = append(bars, bar{X: 430 + i*38, Y: 330 - h, W: 24, H: h})
	}
	var buf bytes.Buffer
	err := slideSVG.Execute(&buf, map[string]any{"Primary": b.Colors.Primary, "Secondary": b.Colors.Secondary, "Bars": bars})
	return buf.Bytes(), err == nil
}

func slides(b *brand.Brand) []Slide {
	out := make([]Slide, len(slideTexts))
	for i, s := range slideTexts {
		name := fmt.Sprintf("carousel-%d.svg", i+1)
		body, _ := carouselSVG(b, i+1)
		out[i] = Slide{URL: brand.AssetURL(b.Slug, name, body), Alt: s[0], Title: s[0], Text: s[1]}
	}
	return out
}

var carouselFile = regexp.MustCompile(`^carousel-(\d+)\.svg$`)

// brandAsset is one of a brand's images by its plain name (logo.svg,
// favicon.svg, logo.png, carousel-N.svg).
func brandAsset(b *brand.Brand, name string) (body []byte, ctype string, ok bool) {
	switch {
	case name == "logo.svg":
		return []byte(b.LogoSVG), "image/svg+xml", true
	case name == "favicon.svg":
		return []byte(b.FaviconSVG), "image/svg+xml", true
	case name == "logo.png":
		png := b.LogoPNG()
		return png, "image/png", png != nil
	case carouselFile.MatchString(name):
		n, _ := strconv.Atoi(carouselFile.FindStringSubmatch(name)[1])
		body, ok := carouselSVG(b, n)
		return body, "image/svg+xml", ok
	}
	return nil, "", false
}

// Cache lifetimes of the brand's images: a content-addressed name
// (logo.<fingerprint>.svg) never changes its bytes, so it is kept a year
// without asking again; a plain name (logo.svg), or a fingerprint of an older
// version (an old e-mail), answers the current image for an hour.
const (
	cacheImmutable = "public, max-age=31536000, immutable"
	cacheHour      = "public, max-age=3600"
)

// privacyPolicy is the LGPD policy shown by the consent banner's viewer.
func privacyPolicy() []byte {
	return pdf.Document("Política de Privacidade e Proteção de Dados", []pdf.Paragraph{
		{Text: "1. Quem somos", Heading: true},
		{Text: "Este portal de registro de oportunidades é operado pelo fabricante cuja marca aparece no topo da página, em conformidade com a Lei Geral de Proteção de Dados Pessoais (Lei nº 13.709/2018)."},
		{Text: "2. Dados que coletamos", Heading: true},
		{Text: "Coletamos nome, e-mail corporativo, telefone e CNPJ das revendas e de seus vendedores, além dos dados de contato dos clientes finais informados no registro de oportunidades."},
		{Text: "3. Para que usamos", Heading: true},
		{Text: "Os dados são usados exclusivamente para analisar, aprovar e acompanhar registros de oportunidades, comunicar decisões por e-mail e cumprir obrigações legais e contratuais com os parceiros."},
		{Text: "4. Compartilhamento", Heading: true},
		{Text: "Os dados são compartilhados apenas com o CRM do fabricante e com os prestadores de serviço necessários à operação do portal (hospedagem e envio de e-mails), sob contrato de confidencialidade."},
		{Text: "5. Seus direitos", Heading: true},
		{Text: "Você pode pedir acesso, correção, portabilidade ou eliminação dos seus dados, e revogar o consentimento, pelo e-mail de contato do administrador da marca."},
		{Text: "6. Cookies", Heading: true},
		{Text: "Usamos cookies essenciais para manter a sua sessão (por até 7 dias) e lembrar este aceite (por 30 dias). Não usamos cookies de publicidade."},
	})
}

// guidelines is the brand's opportunity-registration rules, linked from the form's terms checkbox.
func guidelines(b *brand.Brand) []byte {
	return pdf.Document("Diretrizes do Programa de Registro de Oportunidades — "+b.Name, []pdf.Paragraph{
		{Text: "1. Elegibilidade", Heading: true},
		{Text: "Podem registrar oportunidades as revendas aprovadas no portal e os vendedores cadastrados por elas."},
		{Text: "2. Registro", Heading: true},
		{Text: "Cada registro identifica o cliente final pelo CNPJ e descreve o projeto, os produtos e a data prevista de conclusão. Registros incompletos ou duplicados podem ser reprovados."},
		{Text: "3. Análise e validade", Heading: true},
		{Text: "O representante do fabricante aprova ou reprova cada registro. Um registro aprovado vale por 90 dias; nos últimos dias de validade e após a expiração, a revenda pode solicitar a renovação."},
		{Text: "4. Conflitos", Heading: true},
		{Text: "Havendo mais de um registro para o mesmo cliente e projeto, prevalece o primeiro aprovado, salvo decisão fundamentada do representante."},
		{Text: "5. Contato", Heading: true},
		{Text: fmt.Sprintf("Dúvidas: %s, %s, %s.", b.Admin.Name, b.Admin.Email, b.Admin.Phone)},
	})
}

// encodings are the precompressed siblings the web build writes (web/build/precompress.ts),
// best first: brotli is ~15 % smaller than gzip on our bundles.
var encodings = []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// serveStatic serves the file name of fsys, or the precompressed sibling
// (name.br, name.gz) the request's Accept-Encoding allows, with the original's
// Content-Type and Vary: Accept-Encoding whenever a sibling exists, so that a
// cache never hands a compressed body to a client that did not ask for it.
func serveStatic(w http.ResponseWriter, r *http.Request, fsys fs.FS, name string) {
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	accepted := acceptedEncodings(r.Header.Get("Accept-Encoding"))
	varies := false
	for _, enc := range encodings {
		f, err := fsys.Open(name + enc.ext)
		if err != nil {
			continue
		}
		varies = true
		if !accepted[enc.token] {
			f.Close()
			continue
		}
		defer f.Close()
		st, err := f.Stat()
		rs, ok := f.(io.ReadSeeker)
		if err != nil || !ok {
			break
		}
		w.Header().Add("Vary", "Accept-Encoding")
		w.Header().Set("Content-Encoding", enc.token)
		// No ranges over a compressed body: a resumed download would mix encodings.
		r.Header.Del("Range")
		http.ServeContent(w, r, name, st.ModTime(), rs)
		return
	}
	if varies {
		w.Header().Add("Vary", "Accept-Encoding")
	}
	http.ServeFileFS(w, r, fsys, name)
}

// acceptedEncodings reads an Accept-Encoding header (RFC 9110 §12.5.3):
// the codings with a non-zero q, "*" standing for any coding not named.
func acceptedEncodings(header string) map[string]bool {
	out := map[string]bool{}
	named := map[string]bool{}
	star := false
	for _, part := range strings.Split(header, ",") {
		token, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		token = strings.ToLower(strings.TrimSpace(token))
		if token == "" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		if token == "*" {
			star = q > 0
			continue
		}
		named[token] = true
		out[token] = q > 0
	}
	if star {
		for _, enc := range encodings {
			if !named[enc.token] {
				out[enc.token] = true
			}
		}
	}
	return out
}
