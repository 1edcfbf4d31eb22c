-- In-app notices of a reseller sign-up linked to its details screen with the
-- company's data in the query string (CNPJ, contact, e-mail, phone, address):
-- keep the id only, as new notices do (docs/partners.md, "Notifications").
UPDATE notifications
   SET link = '/Painel/Resales/details?id=' || substring(link FROM '[?&]id=([0-9A-Fa-f-]{36})')
 WHERE link LIKE '/Painel/Resales/details?%'
   AND link ~ '[?&]id=[0-9A-Fa-f-]{36}'
   AND link ~ '[?&](docNum|email|phone|name|cep|street|city|state|corporateName|fantasyName|status|reason)=';
