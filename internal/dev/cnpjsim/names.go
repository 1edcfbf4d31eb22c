package cnpjsim

// The parts the fictitious companies are made of.

var kinds = []struct{ word, activity string }{
	{"Distribuidora", "Comércio de Alimentos"},
	{"Supermercados", "Comércio Varejista"},
	{"Farmácias", "Comércio de Medicamentos"},
	{"Transportadora", "Transportes e Logística"},
	{"Atacadão", "Comércio Atacadista"},
	{"Logística", "Armazéns Gerais"},
	{"Indústria", "Indústria e Comércio"},
	{"Autopeças", "Comércio de Peças"},
	{"Construtora", "Construções e Empreendimentos"},
	{"Papelaria", "Comércio de Papéis"},
	{"Frigorífico", "Indústria de Alimentos"},
	{"Laticínios", "Indústria de Laticínios"},
	{"Hospital", "Serviços Hospitalares"},
	{"Clínica", "Serviços Médicos"},
	{"Tecnologia", "Sistemas e Serviços"},
	{"Calçados", "Indústria de Calçados"},
	{"Têxtil", "Indústria Têxtil"},
	{"Materiais de Construção", "Comércio de Materiais"},
	{"Móveis", "Indústria Moveleira"},
	{"Agropecuária", "Produtos Agropecuários"},
}

var families = []string{
	"Andrade", "Oliveira", "Moreira", "Nogueira", "Cardoso", "Ribeiro", "Almeida", "Barbosa",
	"Teixeira", "Azevedo", "Campos", "Rocha", "Farias", "Mendes", "Duarte", "Monteiro",
	"Boa Vista", "Bela Vista", "Horizonte", "Primavera", "Serra Azul", "Ouro Verde", "Estrela do Sul",
	"Novo Tempo", "Vale Verde", "São Jorge", "Santa Luzia", "Três Irmãos", "Irmãos Prado",
	"Pioneira", "Aliança", "Progresso", "Central", "Nacional", "União", "Bandeirantes",
}

var suffixes = []string{"Ltda", "Ltda", "Ltda", "Ltda", "S.A.", "Ltda - ME", "Ltda - EPP"}

var streets = []struct{ kind, name string }{
	{"Rua", "das Flores"}, {"Avenida", "Brasil"}, {"Rua", "XV de Novembro"}, {"Rua", "Sete de Setembro"},
	{"Avenida", "Getúlio Vargas"}, {"Rua", "Tiradentes"}, {"Rua", "Marechal Deodoro"}, {"Avenida", "Presidente Vargas"},
	{"Rua", "Dom Pedro II"}, {"Avenida", "Santos Dumont"}, {"Rua", "São José"}, {"Rua", "Barão do Rio Branco"},
	{"Avenida", "das Indústrias"}, {"Rodovia", "BR-101"}, {"Rua", "José Bonifácio"}, {"Avenida", "Independência"},
	{"Rua", "Duque de Caxias"}, {"Travessa", "da Paz"}, {"Alameda", "dos Anjos"}, {"Rua", "Padre Anchieta"},
	{"Avenida", "Rui Barbosa"}, {"Rua", "Floriano Peixoto"}, {"Estrada", "Municipal"}, {"Rua", "Quintino Bocaiúva"},
}

var districts = []string{
	"Centro", "Centro", "Jardim América", "Vila Nova", "Boa Vista", "Distrito Industrial", "São José",
	"Santa Cruz", "Planalto", "Jardim Europa", "Vila Operária", "Bela Vista", "Parque Industrial", "Cidade Nova",
}

var complements = []string{"Sala %d", "Galpão %d", "Loja %d", "Andar %d", "Bloco %d"}
