-- A database of schema version 2, made by the released package mirror of commit
-- 10e0889 (mirror.Open, then Sync of websites 1001 and 1002 with PageSize 4 and
-- RefreshDays 2) from ordermsgtest.Generate(Config{Seed: 25, Websites: 2,
-- OrdersPerWebsite: 6, MessagesPerWebsite: 8}) behind the spoiler of the tests
-- (spoiler_test.go): \u0000 put at the start of the first "title" of order
-- 1001000030 and of the first "formatted_value" of message 1001000028, and the
-- file links' origin pinned to https://files.example.
-- That release's views fail on the \u0000 in PostgreSQL. Dumped with pg_dump
-- 15.18 --no-owner --no-privileges --no-toast-compression --inserts, without the
-- dump's two psql commands (\restrict, \unrestrict). Never edit it: it stands
-- for the databases that version left behind.
--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: messages; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.messages (
    website_id bigint NOT NULL,
    id bigint NOT NULL,
    date_created text NOT NULL,
    message_type text NOT NULL,
    order_id bigint,
    form_id bigint,
    user_id bigint,
    portal_id bigint,
    file_id bigint,
    json json NOT NULL
);


--
-- Name: message_fields; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.message_fields AS
 SELECT m.website_id,
    m.id AS message_id,
    m.message_type,
    (f.value #>> '{id}'::text[]) AS field_id,
    (f.value #>> '{field_type}'::text[]) AS field_type,
    (f.value #>> '{label}'::text[]) AS label,
    (f.value #>> '{formatted_value}'::text[]) AS formatted_value,
    ((f.value #> '{values}'::text[]))::text AS field_values
   FROM (public.messages m
     CROSS JOIN LATERAL json_each(
        CASE
            WHEN (json_typeof((m.json #> '{form_submission,fields}'::text[])) = 'object'::text) THEN (m.json #> '{form_submission,fields}'::text[])
            ELSE NULL::json
        END) f(key, value));


--
-- Name: message_payment_transactions; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.message_payment_transactions AS
 SELECT m.website_id,
    m.id AS message_id,
    ((t.value #>> '{id}'::text[]))::bigint AS id,
    (t.value #>> '{date_created}'::text[]) AS date_created,
    ((t.value #>> '{amount}'::text[]))::bigint AS amount,
    (t.value #>> '{currency}'::text[]) AS currency,
    (t.value #>> '{payment_type}'::text[]) AS payment_type,
    (t.value #>> '{transaction_id}'::text[]) AS transaction_id,
    (t.value #>> '{transaction_status}'::text[]) AS transaction_status,
    (t.value #>> '{transaction_type}'::text[]) AS transaction_type,
    ((t.value #>> '{is_recurring}'::text[]))::boolean AS is_recurring,
    ((t.value #>> '{test_mode}'::text[]))::boolean AS test_mode
   FROM (public.messages m
     CROSS JOIN LATERAL json_array_elements(
        CASE
            WHEN (json_typeof((m.json #> '{payment_transactions}'::text[])) = 'array'::text) THEN (m.json #> '{payment_transactions}'::text[])
            ELSE NULL::json
        END) t(value));


--
-- Name: mirror_schema; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.mirror_schema (
    version integer NOT NULL
);


--
-- Name: orders; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.orders (
    website_id bigint NOT NULL,
    id bigint NOT NULL,
    date_created text NOT NULL,
    status text NOT NULL,
    order_type text NOT NULL,
    currency text NOT NULL,
    total bigint NOT NULL,
    amount_paid bigint NOT NULL,
    message_id bigint,
    user_id bigint,
    portal_id bigint,
    promo_code_id bigint,
    promo_code text,
    json json NOT NULL
);


--
-- Name: order_fields; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.order_fields AS
 SELECT o.website_id,
    o.id AS order_id,
    'billing_address'::text AS form,
    NULL::bigint AS shipment_id,
    (f.value #>> '{id}'::text[]) AS field_id,
    (f.value #>> '{field_type}'::text[]) AS field_type,
    (f.value #>> '{label}'::text[]) AS label,
    (f.value #>> '{formatted_value}'::text[]) AS formatted_value,
    ((f.value #> '{values}'::text[]))::text AS field_values
   FROM (public.orders o
     CROSS JOIN LATERAL json_each(
        CASE
            WHEN (json_typeof((o.json #> '{billing_address,fields}'::text[])) = 'object'::text) THEN (o.json #> '{billing_address,fields}'::text[])
            ELSE NULL::json
        END) f(key, value))
UNION ALL
 SELECT o.website_id,
    o.id AS order_id,
    'additional_information'::text AS form,
    NULL::bigint AS shipment_id,
    (f.value #>> '{id}'::text[]) AS field_id,
    (f.value #>> '{field_type}'::text[]) AS field_type,
    (f.value #>> '{label}'::text[]) AS label,
    (f.value #>> '{formatted_value}'::text[]) AS formatted_value,
    ((f.value #> '{values}'::text[]))::text AS field_values
   FROM (public.orders o
     CROSS JOIN LATERAL json_each(
        CASE
            WHEN (json_typeof((o.json #> '{additional_information,fields}'::text[])) = 'object'::text) THEN (o.json #> '{additional_information,fields}'::text[])
            ELSE NULL::json
        END) f(key, value))
UNION ALL
 SELECT o.website_id,
    o.id AS order_id,
    'shipping_address'::text AS form,
    ((s.value #>> '{id}'::text[]))::bigint AS shipment_id,
    (f.value #>> '{id}'::text[]) AS field_id,
    (f.value #>> '{field_type}'::text[]) AS field_type,
    (f.value #>> '{label}'::text[]) AS label,
    (f.value #>> '{formatted_value}'::text[]) AS formatted_value,
    ((f.value #> '{values}'::text[]))::text AS field_values
   FROM ((public.orders o
     CROSS JOIN LATERAL json_array_elements(
        CASE
            WHEN (json_typeof((o.json #> '{shipments}'::text[])) = 'array'::text) THEN (o.json #> '{shipments}'::text[])
            ELSE NULL::json
        END) s(value))
     CROSS JOIN LATERAL json_each(
        CASE
            WHEN (json_typeof((s.value #> '{shipping_address,fields}'::text[])) = 'object'::text) THEN (s.value #> '{shipping_address,fields}'::text[])
            ELSE NULL::json
        END) f(key, value));


--
-- Name: order_item_fields; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.order_item_fields AS
 SELECT o.website_id,
    o.id AS order_id,
    ((i.value #>> '{id}'::text[]))::bigint AS item_id,
    'attributes'::text AS form,
    (f.value #>> '{id}'::text[]) AS field_id,
    (f.value #>> '{field_type}'::text[]) AS field_type,
    (f.value #>> '{label}'::text[]) AS label,
    (f.value #>> '{formatted_value}'::text[]) AS formatted_value,
    ((f.value #> '{values}'::text[]))::text AS field_values,
    ((f.value #>> '{price_modifier}'::text[]))::bigint AS price_modifier,
    (f.value #>> '{price_modifier_type}'::text[]) AS price_modifier_type,
    (f.value #>> '{price_scope}'::text[]) AS price_scope
   FROM ((public.orders o
     CROSS JOIN LATERAL json_array_elements(
        CASE
            WHEN (json_typeof((o.json #> '{items}'::text[])) = 'array'::text) THEN (o.json #> '{items}'::text[])
            ELSE NULL::json
        END) i(value))
     CROSS JOIN LATERAL json_each(
        CASE
            WHEN (json_typeof((i.value #> '{attributes,fields}'::text[])) = 'object'::text) THEN (i.value #> '{attributes,fields}'::text[])
            ELSE NULL::json
        END) f(key, value))
UNION ALL
 SELECT o.website_id,
    o.id AS order_id,
    ((i.value #>> '{id}'::text[]))::bigint AS item_id,
    'versadoc_order_form'::text AS form,
    (f.value #>> '{id}'::text[]) AS field_id,
    (f.value #>> '{field_type}'::text[]) AS field_type,
    (f.value #>> '{label}'::text[]) AS label,
    (f.value #>> '{formatted_value}'::text[]) AS formatted_value,
    ((f.value #> '{values}'::text[]))::text AS field_values,
    ((f.value #>> '{price_modifier}'::text[]))::bigint AS price_modifier,
    (f.value #>> '{price_modifier_type}'::text[]) AS price_modifier_type,
    (f.value #>> '{price_scope}'::text[]) AS price_scope
   FROM ((public.orders o
     CROSS JOIN LATERAL json_array_elements(
        CASE
            WHEN (json_typeof((o.json #> '{items}'::text[])) = 'array'::text) THEN (o.json #> '{items}'::text[])
            ELSE NULL::json
        END) i(value))
     CROSS JOIN LATERAL json_each(
        CASE
            WHEN (json_typeof((i.value #> '{versadoc_order_form,fields}'::text[])) = 'object'::text) THEN (i.value #> '{versadoc_order_form,fields}'::text[])
            ELSE NULL::json
        END) f(key, value));


--
-- Name: order_items; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.order_items AS
 SELECT o.website_id,
    o.id AS order_id,
    ((i.value #>> '{id}'::text[]))::bigint AS id,
    (i.value #>> '{object}'::text[]) AS object,
    (i.value #>> '{sku}'::text[]) AS sku,
    (i.value #>> '{title}'::text[]) AS title,
    ((i.value #>> '{quantity}'::text[]))::bigint AS quantity,
    (i.value #>> '{status}'::text[]) AS status,
    ((i.value #>> '{pricing,unit}'::text[]))::bigint AS unit_price,
    ((i.value #>> '{pricing,volume}'::text[]))::bigint AS volume_price,
    ((i.value #>> '{pricing,subtotal}'::text[]))::bigint AS subtotal,
    ((i.value #>> '{tax_percentage}'::text[]))::double precision AS tax_percentage,
    ((i.value #>> '{is_taxable}'::text[]))::boolean AS is_taxable,
    ((i.value #>> '{weight}'::text[]))::double precision AS weight,
    ((i.value #>> '{catalog_item}'::text[]))::bigint AS catalog_item_id,
    NULLIF((
        CASE
            WHEN (json_typeof((i.value #> '{shipment}'::text[])) = 'object'::text) THEN (i.value #>> '{shipment,id}'::text[])
            ELSE (i.value #>> '{shipment}'::text[])
        END)::bigint, 0) AS shipment_id,
    NULLIF((
        CASE
            WHEN (json_typeof((i.value #> '{portal}'::text[])) = 'object'::text) THEN (i.value #>> '{portal,id}'::text[])
            ELSE (i.value #>> '{portal}'::text[])
        END)::bigint, 0) AS portal_id,
    (i.value #>> '{date_created}'::text[]) AS date_created
   FROM (public.orders o
     CROSS JOIN LATERAL json_array_elements(
        CASE
            WHEN (json_typeof((o.json #> '{items}'::text[])) = 'array'::text) THEN (o.json #> '{items}'::text[])
            ELSE NULL::json
        END) i(value));


--
-- Name: order_notes; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.order_notes AS
 SELECT o.website_id,
    o.id AS order_id,
    ((n.value #>> '{id}'::text[]))::bigint AS id,
    (n.value #>> '{date_created}'::text[]) AS date_created,
    (n.value #>> '{note}'::text[]) AS note,
    ((n.value #>> '{user,id}'::text[]))::bigint AS user_id,
    (n.value #>> '{user,username}'::text[]) AS username
   FROM (public.orders o
     CROSS JOIN LATERAL json_array_elements(
        CASE
            WHEN (json_typeof((o.json #> '{notes}'::text[])) = 'array'::text) THEN (o.json #> '{notes}'::text[])
            ELSE NULL::json
        END) n(value));


--
-- Name: order_payment_transactions; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.order_payment_transactions AS
 SELECT o.website_id,
    o.id AS order_id,
    ((t.value #>> '{id}'::text[]))::bigint AS id,
    (t.value #>> '{date_created}'::text[]) AS date_created,
    ((t.value #>> '{amount}'::text[]))::bigint AS amount,
    (t.value #>> '{currency}'::text[]) AS currency,
    (t.value #>> '{payment_type}'::text[]) AS payment_type,
    (t.value #>> '{transaction_id}'::text[]) AS transaction_id,
    (t.value #>> '{transaction_status}'::text[]) AS transaction_status,
    (t.value #>> '{transaction_type}'::text[]) AS transaction_type,
    ((t.value #>> '{is_recurring}'::text[]))::boolean AS is_recurring,
    ((t.value #>> '{test_mode}'::text[]))::boolean AS test_mode
   FROM (public.orders o
     CROSS JOIN LATERAL json_array_elements(
        CASE
            WHEN (json_typeof((o.json #> '{payment_transactions}'::text[])) = 'array'::text) THEN (o.json #> '{payment_transactions}'::text[])
            ELSE NULL::json
        END) t(value));


--
-- Name: order_shipments; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.order_shipments AS
 SELECT o.website_id,
    o.id AS order_id,
    ((s.value #>> '{id}'::text[]))::bigint AS id,
    (s.value #>> '{date_created}'::text[]) AS date_created,
    (s.value #>> '{date_shipped}'::text[]) AS date_shipped,
    (s.value #>> '{status}'::text[]) AS status,
    (s.value #>> '{tracking_number}'::text[]) AS tracking_number,
    ((s.value #>> '{price}'::text[]))::bigint AS price,
    ((s.value #>> '{shipping_notification_sent}'::text[]))::boolean AS shipping_notification_sent,
    ((s.value #>> '{shipping_carrier,id}'::text[]))::bigint AS carrier_id,
    (s.value #>> '{shipping_carrier,title}'::text[]) AS carrier,
    (s.value #>> '{shipping_carrier,carrier_type}'::text[]) AS carrier_type,
    ((s.value #>> '{shipping_method,id}'::text[]))::bigint AS method_id,
    (s.value #>> '{shipping_method,title}'::text[]) AS method
   FROM (public.orders o
     CROSS JOIN LATERAL json_array_elements(
        CASE
            WHEN (json_typeof((o.json #> '{shipments}'::text[])) = 'array'::text) THEN (o.json #> '{shipments}'::text[])
            ELSE NULL::json
        END) s(value));


--
-- Name: print_ready_files; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.print_ready_files AS
 SELECT o.website_id,
    o.id AS order_id,
    ((i.value #>> '{id}'::text[]))::bigint AS item_id,
    ((p.value #>> '{id}'::text[]))::bigint AS id,
    (p.value #>> '{date_created}'::text[]) AS date_created,
    (p.value #>> '{tag}'::text[]) AS tag,
    (p.value #>> '{status}'::text[]) AS status,
    ((p.value #>> '{file,id}'::text[]))::bigint AS file_id,
    (p.value #>> '{file,filename}'::text[]) AS filename,
    (p.value #>> '{file,url}'::text[]) AS url,
    (p.value #>> '{file,expires}'::text[]) AS expires
   FROM ((public.orders o
     CROSS JOIN LATERAL json_array_elements(
        CASE
            WHEN (json_typeof((o.json #> '{items}'::text[])) = 'array'::text) THEN (o.json #> '{items}'::text[])
            ELSE NULL::json
        END) i(value))
     CROSS JOIN LATERAL json_array_elements(
        CASE
            WHEN (json_typeof((i.value #> '{print_ready_files}'::text[])) = 'array'::text) THEN (i.value #> '{print_ready_files}'::text[])
            ELSE NULL::json
        END) p(value));


--
-- Name: sync_state; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sync_state (
    website_id bigint NOT NULL,
    resource text NOT NULL,
    checkpoint text NOT NULL
);


--
-- Data for Name: messages; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.messages VALUES (1001, 1001000019, '2024-01-01T13:23:00Z', 'online_order', 1001000020, 1001000016, 1001000004, NULL, NULL, '{"object":"message","id":1001000019,"date_created":"2024-01-01T13:23:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1001000016,"title":"Checkout"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Barbara","middle":"","last":"Ritchie","suffix":""},"formatted_value":"Barbara Ritchie"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"edsger21@example.com","display_value":"edsger21@example.com"},"formatted_value":"edsger21@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5558062179","extension":""},"formatted_value":"+1 5558062179"},"f6":{"object":"form_submission_field","id":"f6","field_type":"address","label":"Address","values":{"line":"114 Thompson Street","line2":"","line3":"","city":"Portland","state":"OR","postal_code":"97201","country":"US"},"formatted_value":"114 Thompson Street, Portland, OR 97201, US"}}},"message_tracking_number":"MSG-1001000019","message_type":"online_order","online_proof":0,"order":1001000020,"payment_transactions":[],"portal":0,"user":{"object":"website_user","id":1001000004,"third_party_identifier":"","username":"dennis.wirth8"}}');
INSERT INTO public.messages VALUES (1001, 1001000027, '2024-01-01T18:10:00Z', 'general_contact', NULL, 1001000018, NULL, NULL, NULL, '{"object":"message","id":1001000027,"date_created":"2024-01-01T18:10:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1001000018,"title":"Contact us"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Margaret","middle":"","last":"Dijkstra","suffix":""},"formatted_value":"Margaret Dijkstra"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"grace728@example.com","display_value":"grace728@example.com"},"formatted_value":"grace728@example.com"},"f8":{"object":"form_submission_field","id":"f8","field_type":"textarea","label":"Message","values":{"submitted_value":"Do you print on recycled paper?\nThanks!"},"formatted_value":"Do you print on recycled paper?\nThanks!"},"f9":{"object":"form_submission_field","id":"f9","field_type":"radio_buttons","label":"Reply by","values":{"submitted_value":"email","display_value":"By email"},"formatted_value":"By email"}}},"message_tracking_number":"MSG-1001000027","message_type":"general_contact","online_proof":0,"order":0,"payment_transactions":[],"portal":0,"user":null}');
INSERT INTO public.messages VALUES (1001, 1001000028, '2024-01-01T20:57:00Z', 'online_order', 1001000030, 1001000016, 1001000013, NULL, NULL, '{"object":"message","id":1001000028,"date_created":"2024-01-01T20:57:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1001000016,"title":"Checkout"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Frances","middle":"","last":"Allen","suffix":""},"formatted_value":"\u0000Frances Allen"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"frances811@example.com","display_value":"frances811@example.com"},"formatted_value":"frances811@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5554186112","extension":""},"formatted_value":"+1 5554186112"},"f6":{"object":"form_submission_field","id":"f6","field_type":"address","label":"Address","values":{"line":"25 Wirth Street","line2":"","line3":"","city":"Austin","state":"TX","postal_code":"73301","country":"US"},"formatted_value":"25 Wirth Street, Austin, TX 73301, US"}}},"message_tracking_number":"MSG-1001000028","message_type":"online_order","online_proof":1001000029,"order":1001000030,"payment_transactions":[],"portal":0,"user":{"object":"website_user","id":1001000013,"third_party_identifier":"crm-1001000013","username":"dennis.hopper2"}}');
INSERT INTO public.messages VALUES (1001, 1001000037, '2024-01-02T02:09:00Z', 'online_order', 1001000038, 1001000016, 1001000006, NULL, NULL, '{"object":"message","id":1001000037,"date_created":"2024-01-02T02:09:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1001000016,"title":"Checkout"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Grace","middle":"","last":"Liskov","suffix":""},"formatted_value":"Grace Liskov"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"edsger773@example.com","display_value":"edsger773@example.com"},"formatted_value":"edsger773@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5550973570","extension":""},"formatted_value":"+1 5550973570"},"f6":{"object":"form_submission_field","id":"f6","field_type":"address","label":"Address","values":{"line":"99 Wirth Street","line2":"","line3":"","city":"Leeds","state":"","postal_code":"LS1 1AA","country":"GB"},"formatted_value":"99 Wirth Street, Leeds, LS1 1AA, GB"}}},"message_tracking_number":"MSG-1001000037","message_type":"online_order","online_proof":0,"order":1001000038,"payment_transactions":[{"object":"payment_transaction","id":1001000041,"amount":58536,"currency":"usd","date_created":"2024-01-02T02:09:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1001000041","transaction_status":"captured","transaction_type":"payment"}],"portal":0,"user":{"object":"website_user","id":1001000006,"third_party_identifier":"","username":"grace.perlman8"}}');
INSERT INTO public.messages VALUES (1001, 1001000042, '2024-01-02T08:27:00Z', 'online_order', 1001000043, 1001000016, 1001000006, NULL, NULL, '{"object":"message","id":1001000042,"date_created":"2024-01-02T08:27:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1001000016,"title":"Checkout"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Dennis","middle":"","last":"Hamilton","suffix":""},"formatted_value":"Dennis Hamilton"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"radia405@example.com","display_value":"radia405@example.com"},"formatted_value":"radia405@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5556852649","extension":""},"formatted_value":"+1 5556852649"},"f6":{"object":"form_submission_field","id":"f6","field_type":"address","label":"Address","values":{"line":"82 Allen Street","line2":"Suite 14","line3":"","city":"Toronto","state":"ON","postal_code":"M5V 2T6","country":"CA"},"formatted_value":"82 Allen Street, Suite 14, Toronto, ON M5V 2T6, CA"}}},"message_tracking_number":"MSG-1001000042","message_type":"online_order","online_proof":0,"order":1001000043,"payment_transactions":[{"object":"payment_transaction","id":1001000053,"amount":9850,"currency":"gbp","date_created":"2024-01-02T08:27:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1001000053","transaction_status":"captured","transaction_type":"payment"}],"portal":0,"user":{"object":"website_user","id":1001000006,"third_party_identifier":"","username":"grace.perlman8"}}');
INSERT INTO public.messages VALUES (1001, 1001000056, '2024-01-02T11:45:00Z', 'event_management', NULL, 1001000017, 1001000013, NULL, NULL, '{"object":"message","id":1001000056,"date_created":"2024-01-02T11:45:00+00:00","event_submission":1001000057,"file":null,"form":{"object":"form","id":1001000017,"title":"Event registration"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Barbara","middle":"","last":"Hopper","suffix":""},"formatted_value":"Barbara Hopper"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"radia127@example.com","display_value":"radia127@example.com"},"formatted_value":"radia127@example.com"},"f7":{"object":"form_submission_field","id":"f7","field_type":"text","label":"Event","values":{"submitted_value":"Print fair 2025"},"formatted_value":"Print fair 2025"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5551401523","extension":""},"formatted_value":"+1 5551401523"}}},"message_tracking_number":"MSG-1001000056","message_type":"event_management","online_proof":1001000058,"order":0,"payment_transactions":[],"portal":0,"user":{"object":"website_user","id":1001000013,"third_party_identifier":"crm-1001000013","username":"dennis.hopper2"}}');
INSERT INTO public.messages VALUES (1001, 1001000059, '2024-01-02T16:08:00Z', 'online_order', 1001000060, 1001000016, 1001000012, 1001000001, NULL, '{"object":"message","id":1001000059,"date_created":"2024-01-02T16:08:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1001000016,"title":"Checkout"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"Dr.","first":"Dennis","middle":"","last":"Knuth","suffix":""},"formatted_value":"Dr. Dennis Knuth"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"barbara123@example.com","display_value":"barbara123@example.com"},"formatted_value":"barbara123@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5556222987","extension":""},"formatted_value":"+1 5556222987"},"f6":{"object":"form_submission_field","id":"f6","field_type":"address","label":"Address","values":{"line":"77 Wirth Street","line2":"","line3":"","city":"Lyon","state":"","postal_code":"69001","country":"FR"},"formatted_value":"77 Wirth Street, Lyon, 69001, FR"}}},"message_tracking_number":"MSG-1001000059","message_type":"online_order","online_proof":0,"order":1001000060,"payment_transactions":[{"object":"payment_transaction","id":1001000067,"amount":56052,"currency":"gbp","date_created":"2024-01-02T16:08:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1001000067","transaction_status":"captured","transaction_type":"payment"}],"portal":{"object":"portal","id":1001000001,"title":"Trade portal"},"user":{"object":"website_user","id":1001000012,"third_party_identifier":"crm-1001000012","username":"grace.dijkstra60"}}');
INSERT INTO public.messages VALUES (1001, 1001000069, '2024-01-02T23:00:00Z', 'online_order', 1001000070, 1001000016, 1001000011, 1001000001, NULL, '{"object":"message","id":1001000069,"date_created":"2024-01-02T23:00:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1001000016,"title":"Checkout"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Niklaus","middle":"","last":"Wirth","suffix":""},"formatted_value":"Niklaus Wirth"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"alan819@example.com","display_value":"alan819@example.com"},"formatted_value":"alan819@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5554955538","extension":""},"formatted_value":"+1 5554955538"},"f6":{"object":"form_submission_field","id":"f6","field_type":"address","label":"Address","values":{"line":"54 Lovelace Street","line2":"","line3":"","city":"Austin","state":"TX","postal_code":"73301","country":"US"},"formatted_value":"54 Lovelace Street, Austin, TX 73301, US"}}},"message_tracking_number":"MSG-1001000069","message_type":"online_order","online_proof":0,"order":1001000070,"payment_transactions":[{"object":"payment_transaction","id":1001000072,"amount":27000,"currency":"gbp","date_created":"2024-01-02T23:00:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1001000072","transaction_status":"captured","transaction_type":"payment"}],"portal":{"object":"portal","id":1001000001,"title":"Trade portal"},"user":{"object":"website_user","id":1001000011,"third_party_identifier":"crm-1001000011","username":"donald.thompson25"}}');
INSERT INTO public.messages VALUES (1002, 1002000019, '2024-01-01T11:36:00Z', 'online_order', 1002000020, 1002000016, 1002000011, NULL, NULL, '{"object":"message","id":1002000019,"date_created":"2024-01-01T11:36:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1002000016,"title":"Checkout"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Dennis","middle":"","last":"Allen","suffix":""},"formatted_value":"Dennis Allen"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"frances722@example.com","display_value":"frances722@example.com"},"formatted_value":"frances722@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5554345960","extension":"69"},"formatted_value":"+1 5554345960 x69"},"f6":{"object":"form_submission_field","id":"f6","field_type":"address","label":"Address","values":{"line":"195 Wirth Street","line2":"Suite 36","line3":"","city":"Austin","state":"TX","postal_code":"73301","country":"US"},"formatted_value":"195 Wirth Street, Suite 36, Austin, TX 73301, US"}}},"message_tracking_number":"MSG-1002000019","message_type":"online_order","online_proof":0,"order":1002000020,"payment_transactions":[],"portal":0,"user":{"object":"website_user","id":1002000011,"third_party_identifier":"","username":"niklaus.ritchie27"}}');
INSERT INTO public.messages VALUES (1002, 1002000024, '2024-01-01T13:22:00Z', 'event_management', NULL, 1002000017, 1002000002, NULL, NULL, '{"object":"message","id":1002000024,"date_created":"2024-01-01T13:22:00+00:00","event_submission":1002000025,"file":null,"form":{"object":"form","id":1002000017,"title":"Event registration"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Dennis","middle":"","last":"Lovelace","suffix":""},"formatted_value":"Dennis Lovelace"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"grace135@example.com","display_value":"grace135@example.com"},"formatted_value":"grace135@example.com"},"f7":{"object":"form_submission_field","id":"f7","field_type":"text","label":"Event","values":{"submitted_value":"Print fair 2025"},"formatted_value":"Print fair 2025"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5553127968","extension":""},"formatted_value":"+1 5553127968"}}},"message_tracking_number":"MSG-1002000024","message_type":"event_management","online_proof":0,"order":0,"payment_transactions":[],"portal":0,"user":{"object":"website_user","id":1002000002,"third_party_identifier":"crm-1002000002","username":"edsger.hamilton75"}}');
INSERT INTO public.messages VALUES (1002, 1002000026, '2024-01-01T14:40:00Z', 'online_order', 1002000027, 1002000016, 1002000002, NULL, NULL, '{"object":"message","id":1002000026,"date_created":"2024-01-01T14:40:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1002000016,"title":"Checkout"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Niklaus","middle":"","last":"Ritchie","suffix":""},"formatted_value":"Niklaus Ritchie"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"grace264@example.com","display_value":"grace264@example.com"},"formatted_value":"grace264@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5552024307","extension":"34"},"formatted_value":"+1 5552024307 x34"},"f6":{"object":"form_submission_field","id":"f6","field_type":"address","label":"Address","values":{"line":"141 Perlman Street","line2":"","line3":"","city":"Springfield","state":"IL","postal_code":"62701","country":"US"},"formatted_value":"141 Perlman Street, Springfield, IL 62701, US"}}},"message_tracking_number":"MSG-1002000026","message_type":"online_order","online_proof":0,"order":1002000027,"payment_transactions":[{"object":"payment_transaction","id":1002000030,"amount":27800,"currency":"gbp","date_created":"2024-01-01T14:40:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1002000030","transaction_status":"captured","transaction_type":"payment"}],"portal":0,"user":{"object":"website_user","id":1002000002,"third_party_identifier":"crm-1002000002","username":"edsger.hamilton75"}}');
INSERT INTO public.messages VALUES (1002, 1002000033, '2024-01-01T18:43:00Z', 'online_order', 1002000034, 1002000016, NULL, NULL, NULL, '{"object":"message","id":1002000033,"date_created":"2024-01-01T18:43:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1002000016,"title":"Checkout"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Donald","middle":"","last":"Ritchie","suffix":""},"formatted_value":"Donald Ritchie"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"alan442@example.com","display_value":"alan442@example.com"},"formatted_value":"alan442@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5555680295","extension":""},"formatted_value":"+1 5555680295"},"f6":{"object":"form_submission_field","id":"f6","field_type":"address","label":"Address","values":{"line":"73 Perlman Street","line2":"Suite 23","line3":"","city":"Lyon","state":"","postal_code":"69001","country":"FR"},"formatted_value":"73 Perlman Street, Suite 23, Lyon, 69001, FR"}}},"message_tracking_number":"MSG-1002000033","message_type":"online_order","online_proof":0,"order":1002000034,"payment_transactions":[{"object":"payment_transaction","id":1002000036,"amount":11232,"currency":"eur","date_created":"2024-01-01T18:43:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1002000036","transaction_status":"captured","transaction_type":"payment"}],"portal":0,"user":null}');
INSERT INTO public.messages VALUES (1002, 1002000038, '2024-01-01T21:33:00Z', 'online_order', 1002000039, 1002000016, NULL, 1002000001, NULL, '{"object":"message","id":1002000038,"date_created":"2024-01-01T21:33:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1002000016,"title":"Checkout"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Edsger","middle":"","last":"Turing","suffix":""},"formatted_value":"Edsger Turing"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"barbara808@example.com","display_value":"barbara808@example.com"},"formatted_value":"barbara808@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5553768725","extension":""},"formatted_value":"+1 5553768725"},"f6":{"object":"form_submission_field","id":"f6","field_type":"address","label":"Address","values":{"line":"86 Hamilton Street","line2":"","line3":"","city":"Toronto","state":"ON","postal_code":"M5V 2T6","country":"CA"},"formatted_value":"86 Hamilton Street, Toronto, ON M5V 2T6, CA"}}},"message_tracking_number":"MSG-1002000038","message_type":"online_order","online_proof":0,"order":1002000039,"payment_transactions":[{"object":"payment_transaction","id":1002000041,"amount":8100,"currency":"usd","date_created":"2024-01-01T21:33:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1002000041","transaction_status":"captured","transaction_type":"payment"}],"portal":{"object":"portal","id":1002000001,"title":"Trade portal"},"user":null}');
INSERT INTO public.messages VALUES (1002, 1002000043, '2024-01-02T03:47:00Z', 'general_contact', NULL, 1002000018, 1002000008, NULL, NULL, '{"object":"message","id":1002000043,"date_created":"2024-01-02T03:47:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1002000018,"title":"Contact us"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Radia","middle":"","last":"Wirth","suffix":""},"formatted_value":"Radia Wirth"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"frances552@example.com","display_value":"frances552@example.com"},"formatted_value":"frances552@example.com"},"f8":{"object":"form_submission_field","id":"f8","field_type":"textarea","label":"Message","values":{"submitted_value":"Do you print on recycled paper?\nThanks!"},"formatted_value":"Do you print on recycled paper?\nThanks!"},"f9":{"object":"form_submission_field","id":"f9","field_type":"radio_buttons","label":"Reply by","values":{"submitted_value":"email","display_value":"By email"},"formatted_value":"By email"}}},"message_tracking_number":"MSG-1002000043","message_type":"general_contact","online_proof":0,"order":0,"payment_transactions":[],"portal":0,"user":{"object":"website_user","id":1002000008,"third_party_identifier":"crm-1002000008","username":"ada.lovelace52"}}');
INSERT INTO public.messages VALUES (1002, 1002000044, '2024-01-02T09:05:00Z', 'online_order', 1002000047, 1002000016, 1002000013, 1002000001, 1002000046, '{"object":"message","id":1002000044,"date_created":"2024-01-02T09:05:00+00:00","event_submission":0,"file":{"object":"file","id":1002000046,"filename":"attachment.pdf","url":"https://files.example/files/1002000046/attachment.pdf?expires=1795641643\u0026sig=7074457083fc3d0bc7c5975d6122a50ec64744da669d4f086f3b1bac75da9c26","expires":"2026-11-25T21:20:43+00:00"},"form":{"object":"form","id":1002000016,"title":"Checkout"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Niklaus","middle":"","last":"Dijkstra","suffix":""},"formatted_value":"Niklaus Dijkstra"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"ada485@example.com","display_value":"ada485@example.com"},"formatted_value":"ada485@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5552750976","extension":"68"},"formatted_value":"+1 5552750976 x68"},"f6":{"object":"form_submission_field","id":"f6","field_type":"address","label":"Address","values":{"line":"89 Lovelace Street","line2":"Suite 33","line3":"","city":"Springfield","state":"IL","postal_code":"62701","country":"US"},"formatted_value":"89 Lovelace Street, Suite 33, Springfield, IL 62701, US"}}},"message_tracking_number":"MSG-1002000044","message_type":"online_order","online_proof":1002000045,"order":1002000047,"payment_transactions":[{"object":"payment_transaction","id":1002000049,"amount":4860,"currency":"eur","date_created":"2024-01-02T09:05:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1002000049","transaction_status":"captured","transaction_type":"payment"}],"portal":{"object":"portal","id":1002000001,"title":"Trade portal"},"user":{"object":"website_user","id":1002000013,"third_party_identifier":"crm-1002000013","username":"margaret.thompson91"}}');
INSERT INTO public.messages VALUES (1002, 1002000052, '2024-01-02T10:04:00Z', 'online_order', 1002000053, 1002000016, NULL, NULL, NULL, '{"object":"message","id":1002000052,"date_created":"2024-01-02T10:04:00+00:00","event_submission":0,"file":null,"form":{"object":"form","id":1002000016,"title":"Checkout"},"form_submission":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Ken","middle":"","last":"Lovelace","suffix":""},"formatted_value":"Ken Lovelace"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"donald133@example.com","display_value":"donald133@example.com"},"formatted_value":"donald133@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5552960803","extension":""},"formatted_value":"+1 5552960803"},"f6":{"object":"form_submission_field","id":"f6","field_type":"address","label":"Address","values":{"line":"144 Lovelace Street","line2":"Suite 24","line3":"","city":"Toronto","state":"ON","postal_code":"M5V 2T6","country":"CA"},"formatted_value":"144 Lovelace Street, Suite 24, Toronto, ON M5V 2T6, CA"}}},"message_tracking_number":"MSG-1002000052","message_type":"online_order","online_proof":0,"order":1002000053,"payment_transactions":[],"portal":0,"user":null}');


--
-- Data for Name: mirror_schema; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.mirror_schema VALUES (2);


--
-- Data for Name: orders; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.orders VALUES (1001, 1001000020, '2024-01-01T13:23:00Z', 'new', 'catalog', 'usd', 89326, 0, 1001000019, 1001000004, NULL, 1001000024, 'SAVE10', '{"object":"order","id":1001000020,"additional_information":{"object":"form_submission","fields":{"f12":{"object":"form_submission_field","id":"f12","field_type":"textarea","label":"Delivery notes","values":{"submitted_value":""},"formatted_value":""},"f13":{"object":"form_submission_field","id":"f13","field_type":"radio_buttons","label":"Gift wrap","values":{"submitted_value":"no","display_value":"No thanks"},"formatted_value":"No thanks"}}},"amount_paid":0,"billing_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"Dr.","first":"Ada","middle":"","last":"Lovelace","suffix":""},"formatted_value":"Dr. Ada Lovelace"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"91 Hamilton Street","line2":"","line3":"","city":"Lyon","state":"","postal_code":"69001","country":"FR"},"formatted_value":"91 Hamilton Street, Lyon, 69001, FR"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"ken861@example.com","display_value":"ken861@example.com"},"formatted_value":"ken861@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5552718722","extension":""},"formatted_value":"+1 5552718722"}}},"content_catalog":9,"currency":"usd","date_created":"2024-01-01T13:23:00+00:00","is_pay_later":true,"items":[{"object":"order_item","id":1001000021,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"gloss","display_value":"Gloss"},"formatted_value":"Gloss","price_modifier":0,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":304,"content_catalog":9,"date_created":"2024-01-01T13:23:00+00:00","description":"Posters printed in full colour","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":4200,"volume":0,"subtotal":16800},"quantity":4,"shipment":0,"short_description":"A2 posters","sku":"PST-A2","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Posters","weight":1.2},{"object":"order_item","id":1001000022,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"recycled","display_value":"Recycled"},"formatted_value":"Recycled","price_modifier":5,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":321,"content_catalog":9,"date_created":"2024-01-01T13:23:00+00:00","description":"Posters printed in full colour","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":4200,"volume":0,"subtotal":12600},"quantity":3,"shipment":0,"short_description":"A2 posters","sku":"PST-A2","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Posters","weight":1.2},{"object":"order_item","id":1001000023,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"gloss","display_value":"Gloss"},"formatted_value":"Gloss","price_modifier":15,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":311,"content_catalog":9,"date_created":"2024-01-01T13:23:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":12500,"volume":0,"subtotal":62500},"quantity":5,"shipment":0,"short_description":"Vinyl banner","sku":"BAN-VNL","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Banner","weight":3}],"message":1001000019,"notes":[{"object":"order_note","id":1001000026,"date_created":"2024-01-01T14:23:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1001000015,"username":"owner@example.com"}}],"order_type":"catalog","payment_transactions":[],"portal":0,"pricing":{"object":"order_pricing","shipping":0,"shipping_discount":0,"subtotal":91900,"subtotal_discount":9190,"tax":6616,"total":89326},"promo_code":{"object":"order_promo_code","id":1001000024,"promo_code":{"object":"promo_code","id":1001000025,"promo_code":"SAVE10"},"shipping_discount":0,"subtotal_discount":9190},"shipments":[],"shipping_tax_percentage":0,"status":"new","user":{"object":"website_user","id":1001000004,"third_party_identifier":"","username":"dennis.wirth8"}}');
INSERT INTO public.orders VALUES (1001, 1001000030, '2024-01-01T20:57:00Z', 'new', 'catalog', 'eur', 20928, 0, 1001000028, 1001000013, NULL, 1001000033, 'SAVE10', '{"object":"order","id":1001000030,"additional_information":{"object":"form_submission","fields":{"f12":{"object":"form_submission_field","id":"f12","field_type":"textarea","label":"Delivery notes","values":{"submitted_value":"Gift, no prices on the slip."},"formatted_value":"Gift, no prices on the slip."},"f13":{"object":"form_submission_field","id":"f13","field_type":"radio_buttons","label":"Gift wrap","values":{"submitted_value":"no","display_value":"No thanks"},"formatted_value":"No thanks"}}},"amount_paid":0,"billing_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"Dr.","first":"Edsger","middle":"","last":"Wirth","suffix":""},"formatted_value":"Dr. Edsger Wirth"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"165 Ritchie Street","line2":"","line3":"","city":"Toronto","state":"ON","postal_code":"M5V 2T6","country":"CA"},"formatted_value":"165 Ritchie Street, Toronto, ON M5V 2T6, CA"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"margaret827@example.com","display_value":"margaret827@example.com"},"formatted_value":"margaret827@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5552251212","extension":"13"},"formatted_value":"+1 5552251212 x13"}}},"content_catalog":9,"currency":"eur","date_created":"2024-01-01T20:57:00+00:00","is_pay_later":true,"items":[{"object":"order_item","id":1001000031,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"recycled","display_value":"Recycled"},"formatted_value":"Recycled","price_modifier":10,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":323,"content_catalog":9,"date_created":"2024-01-01T20:57:00+00:00","description":"Posters printed in full colour","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":4200,"volume":0,"subtotal":16800},"quantity":4,"shipment":1001000035,"short_description":"A2 posters","sku":"PST-A2","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"\u0000Posters","weight":1.2},{"object":"order_item","id":1001000032,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"gloss","display_value":"Gloss"},"formatted_value":"Gloss","price_modifier":15,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":322,"content_catalog":9,"date_created":"2024-01-01T20:57:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":900,"volume":0,"subtotal":3600},"quantity":4,"shipment":1001000035,"short_description":"Round stickers","sku":"STK-RND","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Stickers","weight":0.1}],"message":1001000028,"notes":[{"object":"order_note","id":1001000036,"date_created":"2024-01-01T21:57:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1001000015,"username":"owner@example.com"}}],"order_type":"catalog","payment_transactions":[],"portal":0,"pricing":{"object":"order_pricing","shipping":1100,"shipping_discount":0,"subtotal":20400,"subtotal_discount":2040,"tax":1468,"total":20928},"promo_code":{"object":"order_promo_code","id":1001000033,"promo_code":{"object":"promo_code","id":1001000034,"promo_code":"SAVE10"},"shipping_discount":0,"subtotal_discount":2040},"shipments":[{"object":"order_shipment","id":1001000035,"date_created":"2024-01-01T22:57:00+00:00","date_shipped":"2024-01-02T22:57:00+00:00","shipping_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Alan","middle":"","last":"Allen","suffix":""},"formatted_value":"Alan Allen"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"107 Knuth Street","line2":"","line3":"","city":"Toronto","state":"ON","postal_code":"M5V 2T6","country":"CA"},"formatted_value":"107 Knuth Street, Toronto, ON M5V 2T6, CA"}}},"shipping_carrier":{"object":"shipping_carrier","id":11,"carrier_type":"custom","title":"Courier Co"},"shipping_method":{"object":"shipping_method","id":12,"title":"Next day"},"shipping_notification_sent":true,"status":"shipped","tracking_number":"TRK001000035","price":1100}],"shipping_tax_percentage":0.2,"status":"new","user":{"object":"website_user","id":1001000013,"third_party_identifier":"crm-1001000013","username":"dennis.hopper2"}}');
INSERT INTO public.orders VALUES (1001, 1001000038, '2024-01-02T02:09:00Z', 'new', 'catalog', 'usd', 58536, 58536, 1001000037, 1001000006, NULL, NULL, NULL, '{"object":"order","id":1001000038,"additional_information":{"object":"form_submission","fields":{"f12":{"object":"form_submission_field","id":"f12","field_type":"textarea","label":"Delivery notes","values":{"submitted_value":""},"formatted_value":""},"f13":{"object":"form_submission_field","id":"f13","field_type":"radio_buttons","label":"Gift wrap","values":{"submitted_value":"no","display_value":"No thanks"},"formatted_value":"No thanks"}}},"amount_paid":58536,"billing_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Alan","middle":"","last":"Wirth","suffix":""},"formatted_value":"Alan Wirth"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"13 Turing Street","line2":"Suite 9","line3":"","city":"Lyon","state":"","postal_code":"69001","country":"FR"},"formatted_value":"13 Turing Street, Suite 9, Lyon, 69001, FR"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"donald424@example.com","display_value":"donald424@example.com"},"formatted_value":"donald424@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5558626682","extension":""},"formatted_value":"+1 5558626682"}}},"content_catalog":8,"currency":"usd","date_created":"2024-01-02T02:09:00+00:00","is_pay_later":false,"items":[{"object":"order_item","id":1001000039,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"gloss","display_value":"Gloss"},"formatted_value":"Gloss","price_modifier":10,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":333,"content_catalog":8,"date_created":"2024-01-02T02:09:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":4200,"volume":0,"subtotal":4200},"quantity":1,"shipment":0,"short_description":"A2 posters","sku":"PST-A2","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Posters","weight":1.2},{"object":"order_item","id":1001000040,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"gloss","display_value":"Gloss"},"formatted_value":"Gloss","price_modifier":15,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":309,"content_catalog":8,"date_created":"2024-01-02T02:09:00+00:00","description":"Banner printed in full colour","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":12500,"volume":0,"subtotal":50000},"quantity":4,"shipment":0,"short_description":"Vinyl banner","sku":"BAN-VNL","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Banner","weight":3}],"message":1001000037,"notes":[],"order_type":"catalog","payment_transactions":[{"object":"payment_transaction","id":1001000041,"amount":58536,"currency":"usd","date_created":"2024-01-02T02:09:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1001000041","transaction_status":"captured","transaction_type":"payment"}],"portal":0,"pricing":{"object":"order_pricing","shipping":0,"shipping_discount":0,"subtotal":54200,"subtotal_discount":0,"tax":4336,"total":58536},"promo_code":null,"shipments":[],"shipping_tax_percentage":0,"status":"new","user":{"object":"website_user","id":1001000006,"third_party_identifier":"","username":"grace.perlman8"}}');
INSERT INTO public.orders VALUES (1001, 1001000043, '2024-01-02T08:27:00Z', 'new', 'ecommerce', 'gbp', 9850, 9850, 1001000042, 1001000006, NULL, 1001000050, 'SAVE10', '{"object":"order","id":1001000043,"additional_information":{"object":"form_submission","fields":{"f12":{"object":"form_submission_field","id":"f12","field_type":"textarea","label":"Delivery notes","values":{"submitted_value":"Leave at reception."},"formatted_value":"Leave at reception."},"f13":{"object":"form_submission_field","id":"f13","field_type":"radio_buttons","label":"Gift wrap","values":{"submitted_value":"no","display_value":"No thanks"},"formatted_value":"No thanks"}}},"amount_paid":9850,"billing_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Frances","middle":"","last":"Hamilton","suffix":""},"formatted_value":"Frances Hamilton"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"130 Thompson Street","line2":"","line3":"","city":"Austin","state":"TX","postal_code":"73301","country":"US"},"formatted_value":"130 Thompson Street, Austin, TX 73301, US"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"ada352@example.com","display_value":"ada352@example.com"},"formatted_value":"ada352@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5557519541","extension":"48"},"formatted_value":"+1 5557519541 x48"}}},"content_catalog":9,"currency":"gbp","date_created":"2024-01-02T08:27:00+00:00","is_pay_later":false,"items":[{"object":"versadoc_order_item","id":1001000044,"attributes":null,"catalog_item":326,"content_catalog":9,"date_created":"2024-01-02T08:27:00+00:00","description":"Posters printed in full colour","exempt_from_shipping":true,"is_taxable":false,"portal":0,"pricing":{"object":"order_item_pricing","unit":2000,"volume":400,"subtotal":8000},"quantity":4,"shipment":0,"short_description":"","sku":"BC-STD","status":"ordered","tax_class":0,"tax_percentage":0,"title":"Business cards","weight":0.4,"print_ready_files":[{"object":"print_ready_file","id":1001000045,"date_created":"2024-01-02T08:28:00+00:00","tag":"front","status":"success","file":{"object":"file","id":1001000046,"filename":"front.pdf","url":"https://files.example/files/1001000046/front.pdf?expires=1795641643\u0026sig=9fe7ea589adcd4ce7d0dbe74c6c4e70a2920a699db1b9e83e999be43f22ec1ad","expires":"2026-11-25T21:20:43+00:00"}},{"object":"print_ready_file","id":1001000047,"date_created":"2024-01-02T08:28:00+00:00","tag":"back","status":"success","file":{"object":"file","id":1001000048,"filename":"back.pdf","url":"https://files.example/files/1001000048/back.pdf?expires=1795641643\u0026sig=7db227f20276d1e9909a5349caf10f95c74ece59a0b88f1824582ef77b2d9432","expires":"2026-11-25T21:20:43+00:00"}}],"versadoc_order_form":{"object":"form_submission","fields":{"f31":{"object":"form_submission_field","id":"f31","field_type":"text","label":"Name on card","values":{"submitted_value":"Grace Ritchie"},"formatted_value":"Grace Ritchie"}}}},{"object":"order_item","id":1001000049,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"matte","display_value":"Matte"},"formatted_value":"Matte","price_modifier":10,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":317,"content_catalog":9,"date_created":"2024-01-02T08:27:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":900,"volume":0,"subtotal":900},"quantity":1,"shipment":1001000052,"short_description":"Round stickers","sku":"STK-RND","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Stickers","weight":0.1}],"message":1001000042,"notes":[{"object":"order_note","id":1001000054,"date_created":"2024-01-02T09:27:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1001000014,"username":"staff@example.com"}},{"object":"order_note","id":1001000055,"date_created":"2024-01-02T09:27:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1001000015,"username":"owner@example.com"}}],"order_type":"ecommerce","payment_transactions":[{"object":"payment_transaction","id":1001000053,"amount":9850,"currency":"gbp","date_created":"2024-01-02T08:27:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1001000053","transaction_status":"captured","transaction_type":"payment"}],"portal":0,"pricing":{"object":"order_pricing","shipping":1200,"shipping_discount":0,"subtotal":8900,"subtotal_discount":890,"tax":640,"total":9850},"promo_code":{"object":"order_promo_code","id":1001000050,"promo_code":{"object":"promo_code","id":1001000051,"promo_code":"SAVE10"},"shipping_discount":0,"subtotal_discount":890},"shipments":[{"object":"order_shipment","id":1001000052,"date_created":"2024-01-02T10:27:00+00:00","date_shipped":"2024-01-03T10:27:00+00:00","shipping_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Alan","middle":"","last":"Turing","suffix":""},"formatted_value":"Alan Turing"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"131 Ritchie Street","line2":"","line3":"","city":"Lyon","state":"","postal_code":"69001","country":"FR"},"formatted_value":"131 Ritchie Street, Lyon, 69001, FR"}}},"shipping_carrier":{"object":"shipping_carrier","id":11,"carrier_type":"custom","title":"Courier Co"},"shipping_method":{"object":"shipping_method","id":12,"title":"Next day"},"shipping_notification_sent":true,"status":"shipped","tracking_number":"TRK001000052","price":1200}],"shipping_tax_percentage":0.2,"status":"new","user":{"object":"website_user","id":1001000006,"third_party_identifier":"","username":"grace.perlman8"}}');
INSERT INTO public.orders VALUES (1001, 1001000060, '2024-01-02T16:08:00Z', 'new', 'ecommerce', 'gbp', 56052, 56052, 1001000059, 1001000012, 1001000001, NULL, NULL, '{"object":"order","id":1001000060,"additional_information":{"object":"form_submission","fields":{"f12":{"object":"form_submission_field","id":"f12","field_type":"textarea","label":"Delivery notes","values":{"submitted_value":"Gift, no prices on the slip."},"formatted_value":"Gift, no prices on the slip."},"f13":{"object":"form_submission_field","id":"f13","field_type":"radio_buttons","label":"Gift wrap","values":{"submitted_value":"no","display_value":"No thanks"},"formatted_value":"No thanks"}}},"amount_paid":56052,"billing_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Barbara","middle":"","last":"Hamilton","suffix":""},"formatted_value":"Barbara Hamilton"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"101 Lovelace Street","line2":"","line3":"","city":"Leeds","state":"","postal_code":"LS1 1AA","country":"GB"},"formatted_value":"101 Lovelace Street, Leeds, LS1 1AA, GB"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"niklaus805@example.com","display_value":"niklaus805@example.com"},"formatted_value":"niklaus805@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5553238129","extension":""},"formatted_value":"+1 5553238129"}}},"content_catalog":8,"currency":"gbp","date_created":"2024-01-02T16:08:00+00:00","is_pay_later":false,"items":[{"object":"versadoc_order_item","id":1001000061,"attributes":null,"catalog_item":347,"content_catalog":8,"date_created":"2024-01-02T16:08:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":false,"portal":{"object":"portal","id":1001000001,"title":"Trade portal"},"pricing":{"object":"order_item_pricing","unit":2000,"volume":300,"subtotal":6000},"quantity":3,"shipment":0,"short_description":"","sku":"BC-STD","status":"ordered","tax_class":0,"tax_percentage":0,"title":"Business cards","weight":0.4,"print_ready_files":[{"object":"print_ready_file","id":1001000062,"date_created":"2024-01-02T16:09:00+00:00","tag":"front","status":"success","file":{"object":"file","id":1001000063,"filename":"front.pdf","url":"https://files.example/files/1001000063/front.pdf?expires=1795641643\u0026sig=8c7ea2f87fa794e3fb0d9cf3d0340c769641125e1064f5e40bfa454d59d5aedb","expires":"2026-11-25T21:20:43+00:00"}},{"object":"print_ready_file","id":1001000064,"date_created":"2024-01-02T16:09:00+00:00","tag":"back","status":"failure","file":null}],"versadoc_order_form":{"object":"form_submission","fields":{"f31":{"object":"form_submission_field","id":"f31","field_type":"text","label":"Name on card","values":{"submitted_value":"Niklaus Dijkstra"},"formatted_value":"Niklaus Dijkstra"}}}},{"object":"order_item","id":1001000065,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"matte","display_value":"Matte"},"formatted_value":"Matte","price_modifier":5,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":317,"content_catalog":8,"date_created":"2024-01-02T16:08:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":true,"portal":{"object":"portal","id":1001000001,"title":"Trade portal"},"pricing":{"object":"order_item_pricing","unit":4200,"volume":0,"subtotal":8400},"quantity":2,"shipment":0,"short_description":"A2 posters","sku":"PST-A2","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Posters","weight":1.2},{"object":"order_item","id":1001000066,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"matte","display_value":"Matte"},"formatted_value":"Matte","price_modifier":0,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":313,"content_catalog":8,"date_created":"2024-01-02T16:08:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":true,"portal":{"object":"portal","id":1001000001,"title":"Trade portal"},"pricing":{"object":"order_item_pricing","unit":12500,"volume":0,"subtotal":37500},"quantity":3,"shipment":0,"short_description":"Vinyl banner","sku":"BAN-VNL","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Banner","weight":3}],"message":1001000059,"notes":[{"object":"order_note","id":1001000068,"date_created":"2024-01-02T17:08:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1001000014,"username":"staff@example.com"}}],"order_type":"ecommerce","payment_transactions":[{"object":"payment_transaction","id":1001000067,"amount":56052,"currency":"gbp","date_created":"2024-01-02T16:08:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1001000067","transaction_status":"captured","transaction_type":"payment"}],"portal":{"object":"portal","id":1001000001,"title":"Trade portal"},"pricing":{"object":"order_pricing","shipping":0,"shipping_discount":0,"subtotal":51900,"subtotal_discount":0,"tax":4152,"total":56052},"promo_code":null,"shipments":[],"shipping_tax_percentage":0,"status":"new","user":{"object":"website_user","id":1001000012,"third_party_identifier":"crm-1001000012","username":"grace.dijkstra60"}}');
INSERT INTO public.orders VALUES (1001, 1001000070, '2024-01-02T23:00:00Z', 'new', 'ecommerce', 'gbp', 27000, 27000, 1001000069, 1001000011, 1001000001, NULL, NULL, '{"object":"order","id":1001000070,"additional_information":{"object":"form_submission","fields":{"f12":{"object":"form_submission_field","id":"f12","field_type":"textarea","label":"Delivery notes","values":{"submitted_value":""},"formatted_value":""},"f13":{"object":"form_submission_field","id":"f13","field_type":"radio_buttons","label":"Gift wrap","values":{"submitted_value":"yes","display_value":"Yes please"},"formatted_value":"Yes please"}}},"amount_paid":27000,"billing_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"Dr.","first":"Donald","middle":"","last":"Perlman","suffix":""},"formatted_value":"Dr. Donald Perlman"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"40 Liskov Street","line2":"","line3":"","city":"Leeds","state":"","postal_code":"LS1 1AA","country":"GB"},"formatted_value":"40 Liskov Street, Leeds, LS1 1AA, GB"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"grace60@example.com","display_value":"grace60@example.com"},"formatted_value":"grace60@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5554236737","extension":""},"formatted_value":"+1 5554236737"}}},"content_catalog":9,"currency":"gbp","date_created":"2024-01-02T23:00:00+00:00","is_pay_later":false,"items":[{"object":"order_item","id":1001000071,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"recycled","display_value":"Recycled"},"formatted_value":"Recycled","price_modifier":15,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":326,"content_catalog":9,"date_created":"2024-01-02T23:00:00+00:00","description":"Banner printed in full colour","exempt_from_shipping":false,"is_taxable":true,"portal":{"object":"portal","id":1001000001,"title":"Trade portal"},"pricing":{"object":"order_item_pricing","unit":12500,"volume":0,"subtotal":25000},"quantity":2,"shipment":0,"short_description":"Vinyl banner","sku":"BAN-VNL","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Banner","weight":3}],"message":1001000069,"notes":[],"order_type":"ecommerce","payment_transactions":[{"object":"payment_transaction","id":1001000072,"amount":27000,"currency":"gbp","date_created":"2024-01-02T23:00:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1001000072","transaction_status":"captured","transaction_type":"payment"}],"portal":{"object":"portal","id":1001000001,"title":"Trade portal"},"pricing":{"object":"order_pricing","shipping":0,"shipping_discount":0,"subtotal":25000,"subtotal_discount":0,"tax":2000,"total":27000},"promo_code":null,"shipments":[],"shipping_tax_percentage":0,"status":"new","user":{"object":"website_user","id":1001000011,"third_party_identifier":"crm-1001000011","username":"donald.thompson25"}}');
INSERT INTO public.orders VALUES (1002, 1002000020, '2024-01-01T11:36:00Z', 'new', 'ecommerce', 'usd', 87044, 0, 1002000019, 1002000011, NULL, NULL, NULL, '{"object":"order","id":1002000020,"additional_information":{"object":"form_submission","fields":{"f12":{"object":"form_submission_field","id":"f12","field_type":"textarea","label":"Delivery notes","values":{"submitted_value":"Please call before delivery."},"formatted_value":"Please call before delivery."},"f13":{"object":"form_submission_field","id":"f13","field_type":"radio_buttons","label":"Gift wrap","values":{"submitted_value":"no","display_value":"No thanks"},"formatted_value":"No thanks"}}},"amount_paid":0,"billing_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"Dr.","first":"Donald","middle":"","last":"Allen","suffix":""},"formatted_value":"Dr. Donald Allen"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"137 Dijkstra Street","line2":"Suite 7","line3":"","city":"Springfield","state":"IL","postal_code":"62701","country":"US"},"formatted_value":"137 Dijkstra Street, Suite 7, Springfield, IL 62701, US"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"grace847@example.com","display_value":"grace847@example.com"},"formatted_value":"grace847@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5553364621","extension":""},"formatted_value":"+1 5553364621"}}},"content_catalog":7,"currency":"usd","date_created":"2024-01-01T11:36:00+00:00","is_pay_later":true,"items":[{"object":"order_item","id":1002000021,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"recycled","display_value":"Recycled"},"formatted_value":"Recycled","price_modifier":10,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":307,"content_catalog":7,"date_created":"2024-01-01T11:36:00+00:00","description":"Posters printed in full colour","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":4200,"volume":0,"subtotal":16800},"quantity":4,"shipment":1002000023,"short_description":"A2 posters","sku":"PST-A2","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Posters","weight":1.2},{"object":"order_item","id":1002000022,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"recycled","display_value":"Recycled"},"formatted_value":"Recycled","price_modifier":0,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":344,"content_catalog":7,"date_created":"2024-01-01T11:36:00+00:00","description":"Banner printed in full colour","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":12500,"volume":0,"subtotal":62500},"quantity":5,"shipment":1002000023,"short_description":"Vinyl banner","sku":"BAN-VNL","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Banner","weight":3}],"message":1002000019,"notes":[],"order_type":"ecommerce","payment_transactions":[],"portal":0,"pricing":{"object":"order_pricing","shipping":1400,"shipping_discount":0,"subtotal":79300,"subtotal_discount":0,"tax":6344,"total":87044},"promo_code":null,"shipments":[{"object":"order_shipment","id":1002000023,"date_created":"2024-01-01T13:36:00+00:00","date_shipped":"2024-01-02T13:36:00+00:00","shipping_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"Dr.","first":"Grace","middle":"","last":"Hopper","suffix":""},"formatted_value":"Dr. Grace Hopper"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"83 Dijkstra Street","line2":"Suite 40","line3":"","city":"Portland","state":"OR","postal_code":"97201","country":"US"},"formatted_value":"83 Dijkstra Street, Suite 40, Portland, OR 97201, US"}}},"shipping_carrier":{"object":"shipping_carrier","id":11,"carrier_type":"custom","title":"Courier Co"},"shipping_method":{"object":"shipping_method","id":12,"title":"Next day"},"shipping_notification_sent":true,"status":"shipped","tracking_number":"TRK002000023","price":1400}],"shipping_tax_percentage":0.2,"status":"new","user":{"object":"website_user","id":1002000011,"third_party_identifier":"","username":"niklaus.ritchie27"}}');
INSERT INTO public.orders VALUES (1002, 1002000027, '2024-01-01T14:40:00Z', 'new', 'ecommerce', 'gbp', 27800, 27800, 1002000026, 1002000002, NULL, NULL, NULL, '{"object":"order","id":1002000027,"additional_information":{"object":"form_submission","fields":{"f12":{"object":"form_submission_field","id":"f12","field_type":"textarea","label":"Delivery notes","values":{"submitted_value":"Leave at reception."},"formatted_value":"Leave at reception."},"f13":{"object":"form_submission_field","id":"f13","field_type":"radio_buttons","label":"Gift wrap","values":{"submitted_value":"no","display_value":"No thanks"},"formatted_value":"No thanks"}}},"amount_paid":27800,"billing_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"Dr.","first":"Edsger","middle":"","last":"Thompson","suffix":""},"formatted_value":"Dr. Edsger Thompson"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"103 Liskov Street","line2":"Suite 10","line3":"","city":"Leeds","state":"","postal_code":"LS1 1AA","country":"GB"},"formatted_value":"103 Liskov Street, Suite 10, Leeds, LS1 1AA, GB"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"margaret323@example.com","display_value":"margaret323@example.com"},"formatted_value":"margaret323@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5554434345","extension":""},"formatted_value":"+1 5554434345"}}},"content_catalog":8,"currency":"gbp","date_created":"2024-01-01T14:40:00+00:00","is_pay_later":false,"items":[{"object":"order_item","id":1002000028,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"gloss","display_value":"Gloss"},"formatted_value":"Gloss","price_modifier":0,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":347,"content_catalog":8,"date_created":"2024-01-01T14:40:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":12500,"volume":0,"subtotal":25000},"quantity":2,"shipment":1002000029,"short_description":"Vinyl banner","sku":"BAN-VNL","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Banner","weight":3}],"message":1002000026,"notes":[{"object":"order_note","id":1002000031,"date_created":"2024-01-01T15:40:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1002000015,"username":"owner@example.com"}},{"object":"order_note","id":1002000032,"date_created":"2024-01-01T15:40:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1002000015,"username":"owner@example.com"}}],"order_type":"ecommerce","payment_transactions":[{"object":"payment_transaction","id":1002000030,"amount":27800,"currency":"gbp","date_created":"2024-01-01T14:40:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1002000030","transaction_status":"captured","transaction_type":"payment"}],"portal":0,"pricing":{"object":"order_pricing","shipping":800,"shipping_discount":0,"subtotal":25000,"subtotal_discount":0,"tax":2000,"total":27800},"promo_code":null,"shipments":[{"object":"order_shipment","id":1002000029,"date_created":"2024-01-01T16:40:00+00:00","date_shipped":"2024-01-02T16:40:00+00:00","shipping_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Margaret","middle":"","last":"Liskov","suffix":""},"formatted_value":"Margaret Liskov"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"43 Turing Street","line2":"","line3":"","city":"Lyon","state":"","postal_code":"69001","country":"FR"},"formatted_value":"43 Turing Street, Lyon, 69001, FR"}}},"shipping_carrier":{"object":"shipping_carrier","id":11,"carrier_type":"custom","title":"Courier Co"},"shipping_method":{"object":"shipping_method","id":12,"title":"Next day"},"shipping_notification_sent":true,"status":"shipped","tracking_number":"TRK002000029","price":800}],"shipping_tax_percentage":0.2,"status":"new","user":{"object":"website_user","id":1002000002,"third_party_identifier":"crm-1002000002","username":"edsger.hamilton75"}}');
INSERT INTO public.orders VALUES (1002, 1002000034, '2024-01-01T18:43:00Z', 'new', 'catalog', 'eur', 11232, 11232, 1002000033, NULL, NULL, NULL, NULL, '{"object":"order","id":1002000034,"additional_information":{"object":"form_submission","fields":{"f12":{"object":"form_submission_field","id":"f12","field_type":"textarea","label":"Delivery notes","values":{"submitted_value":"Please call before delivery."},"formatted_value":"Please call before delivery."},"f13":{"object":"form_submission_field","id":"f13","field_type":"radio_buttons","label":"Gift wrap","values":{"submitted_value":"no","display_value":"No thanks"},"formatted_value":"No thanks"}}},"amount_paid":11232,"billing_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Edsger","middle":"","last":"Turing","suffix":""},"formatted_value":"Edsger Turing"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"176 Allen Street","line2":"","line3":"","city":"Portland","state":"OR","postal_code":"97201","country":"US"},"formatted_value":"176 Allen Street, Portland, OR 97201, US"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"barbara922@example.com","display_value":"barbara922@example.com"},"formatted_value":"barbara922@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5559129933","extension":"79"},"formatted_value":"+1 5559129933 x79"}}},"content_catalog":7,"currency":"eur","date_created":"2024-01-01T18:43:00+00:00","is_pay_later":false,"items":[{"object":"order_item","id":1002000035,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"matte","display_value":"Matte"},"formatted_value":"Matte","price_modifier":15,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":303,"content_catalog":7,"date_created":"2024-01-01T18:43:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":2600,"volume":0,"subtotal":10400},"quantity":4,"shipment":0,"short_description":"Tri-fold brochures","sku":"BRO-TRI","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Brochures","weight":0.8}],"message":1002000033,"notes":[{"object":"order_note","id":1002000037,"date_created":"2024-01-01T19:43:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1002000014,"username":"staff@example.com"}}],"order_type":"catalog","payment_transactions":[{"object":"payment_transaction","id":1002000036,"amount":11232,"currency":"eur","date_created":"2024-01-01T18:43:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1002000036","transaction_status":"captured","transaction_type":"payment"}],"portal":0,"pricing":{"object":"order_pricing","shipping":0,"shipping_discount":0,"subtotal":10400,"subtotal_discount":0,"tax":832,"total":11232},"promo_code":null,"shipments":[],"shipping_tax_percentage":0,"status":"new","user":null}');
INSERT INTO public.orders VALUES (1002, 1002000039, '2024-01-01T21:33:00Z', 'new', 'ecommerce', 'usd', 8100, 8100, 1002000038, NULL, 1002000001, NULL, NULL, '{"object":"order","id":1002000039,"additional_information":{"object":"form_submission","fields":{"f12":{"object":"form_submission_field","id":"f12","field_type":"textarea","label":"Delivery notes","values":{"submitted_value":""},"formatted_value":""},"f13":{"object":"form_submission_field","id":"f13","field_type":"radio_buttons","label":"Gift wrap","values":{"submitted_value":"no","display_value":"No thanks"},"formatted_value":"No thanks"}}},"amount_paid":8100,"billing_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Radia","middle":"","last":"Knuth","suffix":""},"formatted_value":"Radia Knuth"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"162 Dijkstra Street","line2":"","line3":"","city":"Austin","state":"TX","postal_code":"73301","country":"US"},"formatted_value":"162 Dijkstra Street, Austin, TX 73301, US"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"donald323@example.com","display_value":"donald323@example.com"},"formatted_value":"donald323@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5552013626","extension":""},"formatted_value":"+1 5552013626"}}},"content_catalog":7,"currency":"usd","date_created":"2024-01-01T21:33:00+00:00","is_pay_later":false,"items":[{"object":"order_item","id":1002000040,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"recycled","display_value":"Recycled"},"formatted_value":"Recycled","price_modifier":5,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":336,"content_catalog":7,"date_created":"2024-01-01T21:33:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":true,"portal":{"object":"portal","id":1002000001,"title":"Trade portal"},"pricing":{"object":"order_item_pricing","unit":1500,"volume":0,"subtotal":7500},"quantity":5,"shipment":0,"short_description":"A5 flyers","sku":"FLY-A5","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Flyers","weight":0.5}],"message":1002000038,"notes":[{"object":"order_note","id":1002000042,"date_created":"2024-01-01T22:33:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1002000014,"username":"staff@example.com"}}],"order_type":"ecommerce","payment_transactions":[{"object":"payment_transaction","id":1002000041,"amount":8100,"currency":"usd","date_created":"2024-01-01T21:33:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1002000041","transaction_status":"captured","transaction_type":"payment"}],"portal":{"object":"portal","id":1002000001,"title":"Trade portal"},"pricing":{"object":"order_pricing","shipping":0,"shipping_discount":0,"subtotal":7500,"subtotal_discount":0,"tax":600,"total":8100},"promo_code":null,"shipments":[],"shipping_tax_percentage":0,"status":"new","user":null}');
INSERT INTO public.orders VALUES (1002, 1002000047, '2024-01-02T09:05:00Z', 'new', 'catalog', 'eur', 4860, 4860, 1002000044, 1002000013, 1002000001, NULL, NULL, '{"object":"order","id":1002000047,"additional_information":{"object":"form_submission","fields":{"f12":{"object":"form_submission_field","id":"f12","field_type":"textarea","label":"Delivery notes","values":{"submitted_value":"Gift, no prices on the slip."},"formatted_value":"Gift, no prices on the slip."},"f13":{"object":"form_submission_field","id":"f13","field_type":"radio_buttons","label":"Gift wrap","values":{"submitted_value":"yes","display_value":"Yes please"},"formatted_value":"Yes please"}}},"amount_paid":4860,"billing_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Niklaus","middle":"","last":"Allen","suffix":""},"formatted_value":"Niklaus Allen"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"78 Dijkstra Street","line2":"Suite 17","line3":"","city":"Springfield","state":"IL","postal_code":"62701","country":"US"},"formatted_value":"78 Dijkstra Street, Suite 17, Springfield, IL 62701, US"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"edsger491@example.com","display_value":"edsger491@example.com"},"formatted_value":"edsger491@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5555375311","extension":""},"formatted_value":"+1 5555375311"}}},"content_catalog":7,"currency":"eur","date_created":"2024-01-02T09:05:00+00:00","is_pay_later":false,"items":[{"object":"order_item","id":1002000048,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"recycled","display_value":"Recycled"},"formatted_value":"Recycled","price_modifier":0,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":329,"content_catalog":7,"date_created":"2024-01-02T09:05:00+00:00","description":"Stickers printed in full colour","exempt_from_shipping":false,"is_taxable":true,"portal":{"object":"portal","id":1002000001,"title":"Trade portal"},"pricing":{"object":"order_item_pricing","unit":900,"volume":0,"subtotal":4500},"quantity":5,"shipment":0,"short_description":"Round stickers","sku":"STK-RND","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Stickers","weight":0.1}],"message":1002000044,"notes":[{"object":"order_note","id":1002000050,"date_created":"2024-01-02T10:05:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1002000014,"username":"staff@example.com"}},{"object":"order_note","id":1002000051,"date_created":"2024-01-02T10:05:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1002000015,"username":"owner@example.com"}}],"order_type":"catalog","payment_transactions":[{"object":"payment_transaction","id":1002000049,"amount":4860,"currency":"eur","date_created":"2024-01-02T09:05:30+00:00","is_recurring":false,"payment_type":"credit_card","test_mode":true,"transaction_id":"ch_1002000049","transaction_status":"captured","transaction_type":"payment"}],"portal":{"object":"portal","id":1002000001,"title":"Trade portal"},"pricing":{"object":"order_pricing","shipping":0,"shipping_discount":0,"subtotal":4500,"subtotal_discount":0,"tax":360,"total":4860},"promo_code":null,"shipments":[],"shipping_tax_percentage":0,"status":"new","user":{"object":"website_user","id":1002000013,"third_party_identifier":"crm-1002000013","username":"margaret.thompson91"}}');
INSERT INTO public.orders VALUES (1002, 1002000053, '2024-01-02T10:04:00Z', 'new', 'catalog', 'usd', 10514, 0, 1002000052, NULL, NULL, 1002000057, 'SAVE10', '{"object":"order","id":1002000053,"additional_information":{"object":"form_submission","fields":{"f12":{"object":"form_submission_field","id":"f12","field_type":"textarea","label":"Delivery notes","values":{"submitted_value":"Gift, no prices on the slip."},"formatted_value":"Gift, no prices on the slip."},"f13":{"object":"form_submission_field","id":"f13","field_type":"radio_buttons","label":"Gift wrap","values":{"submitted_value":"no","display_value":"No thanks"},"formatted_value":"No thanks"}}},"amount_paid":0,"billing_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"Dr.","first":"Ken","middle":"","last":"Knuth","suffix":""},"formatted_value":"Dr. Ken Knuth"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"47 Hamilton Street","line2":"","line3":"","city":"Austin","state":"TX","postal_code":"73301","country":"US"},"formatted_value":"47 Hamilton Street, Austin, TX 73301, US"},"f4":{"object":"form_submission_field","id":"f4","field_type":"email","label":"Email","values":{"submitted_value":"ada993@example.com","display_value":"ada993@example.com"},"formatted_value":"ada993@example.com"},"f5":{"object":"form_submission_field","id":"f5","field_type":"phone","label":"Phone","values":{"country_code":"1","number":"5552032883","extension":"94"},"formatted_value":"+1 5552032883 x94"}}},"content_catalog":9,"currency":"usd","date_created":"2024-01-02T10:04:00+00:00","is_pay_later":true,"items":[{"object":"order_item","id":1002000054,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"matte","display_value":"Matte"},"formatted_value":"Matte","price_modifier":5,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":347,"content_catalog":9,"date_created":"2024-01-02T10:04:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":900,"volume":0,"subtotal":4500},"quantity":5,"shipment":1002000059,"short_description":"Round stickers","sku":"STK-RND","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Stickers","weight":0.1},{"object":"order_item","id":1002000055,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"recycled","display_value":"Recycled"},"formatted_value":"Recycled","price_modifier":15,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":346,"content_catalog":9,"date_created":"2024-01-02T10:04:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":1500,"volume":0,"subtotal":3000},"quantity":2,"shipment":1002000059,"short_description":"A5 flyers","sku":"FLY-A5","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Flyers","weight":0.5},{"object":"order_item","id":1002000056,"attributes":{"object":"form_submission","fields":{"f21":{"object":"form_submission_field","id":"f21","field_type":"radio_buttons","label":"Paper","values":{"submitted_value":"matte","display_value":"Matte"},"formatted_value":"Matte","price_modifier":5,"price_modifier_type":"percent","price_scope":"all_units"}}},"catalog_item":333,"content_catalog":9,"date_created":"2024-01-02T10:04:00+00:00","description":"","exempt_from_shipping":false,"is_taxable":true,"portal":0,"pricing":{"object":"order_item_pricing","unit":900,"volume":0,"subtotal":2700},"quantity":3,"shipment":1002000059,"short_description":"Round stickers","sku":"STK-RND","status":"ordered","tax_class":2,"tax_percentage":0.08,"title":"Stickers","weight":0.1}],"message":1002000052,"notes":[{"object":"order_note","id":1002000060,"date_created":"2024-01-02T11:04:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1002000014,"username":"staff@example.com"}},{"object":"order_note","id":1002000061,"date_created":"2024-01-02T11:04:00+00:00","note":"Customer asked about delivery.","user":{"object":"account_user","id":1002000014,"username":"staff@example.com"}}],"order_type":"catalog","payment_transactions":[],"portal":0,"pricing":{"object":"order_pricing","shipping":600,"shipping_discount":0,"subtotal":10200,"subtotal_discount":1020,"tax":734,"total":10514},"promo_code":{"object":"order_promo_code","id":1002000057,"promo_code":{"object":"promo_code","id":1002000058,"promo_code":"SAVE10"},"shipping_discount":0,"subtotal_discount":1020},"shipments":[{"object":"order_shipment","id":1002000059,"date_created":"2024-01-02T12:04:00+00:00","date_shipped":"2024-01-03T12:04:00+00:00","shipping_address":{"object":"form_submission","fields":{"f1":{"object":"form_submission_field","id":"f1","field_type":"name","label":"Name","values":{"prefix":"","first":"Grace","middle":"","last":"Hamilton","suffix":""},"formatted_value":"Grace Hamilton"},"f2":{"object":"form_submission_field","id":"f2","field_type":"address","label":"Address","values":{"line":"200 Hopper Street","line2":"","line3":"","city":"Portland","state":"OR","postal_code":"97201","country":"US"},"formatted_value":"200 Hopper Street, Portland, OR 97201, US"}}},"shipping_carrier":{"object":"shipping_carrier","id":11,"carrier_type":"custom","title":"Courier Co"},"shipping_method":{"object":"shipping_method","id":12,"title":"Next day"},"shipping_notification_sent":true,"status":"shipped","tracking_number":"TRK002000059","price":600}],"shipping_tax_percentage":0.2,"status":"new","user":null}');


--
-- Data for Name: sync_state; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.sync_state VALUES (1001, 'orders', '{"v":2,"resource":"orders","website":1001,"created":"2024-01-02T23:00:00Z","seen":{"2024-01-01T13:23:00Z":[1001000020],"2024-01-01T20:57:00Z":[1001000030],"2024-01-02T02:09:00Z":[1001000038],"2024-01-02T08:27:00Z":[1001000043],"2024-01-02T16:08:00Z":[1001000060],"2024-01-02T23:00:00Z":[1001000070]}}');
INSERT INTO public.sync_state VALUES (1001, 'messages', '{"v":2,"resource":"messages","website":1001,"created":"2024-01-02T23:00:00Z","seen":{"2024-01-01T13:23:00Z":[1001000019],"2024-01-01T18:10:00Z":[1001000027],"2024-01-01T20:57:00Z":[1001000028],"2024-01-02T02:09:00Z":[1001000037],"2024-01-02T08:27:00Z":[1001000042],"2024-01-02T11:45:00Z":[1001000056],"2024-01-02T16:08:00Z":[1001000059],"2024-01-02T23:00:00Z":[1001000069]}}');
INSERT INTO public.sync_state VALUES (1002, 'orders', '{"v":2,"resource":"orders","website":1002,"created":"2024-01-02T10:04:00Z","seen":{"2024-01-01T11:36:00Z":[1002000020],"2024-01-01T14:40:00Z":[1002000027],"2024-01-01T18:43:00Z":[1002000034],"2024-01-01T21:33:00Z":[1002000039],"2024-01-02T09:05:00Z":[1002000047],"2024-01-02T10:04:00Z":[1002000053]}}');
INSERT INTO public.sync_state VALUES (1002, 'messages', '{"v":2,"resource":"messages","website":1002,"created":"2024-01-02T10:04:00Z","seen":{"2024-01-01T11:36:00Z":[1002000019],"2024-01-01T13:22:00Z":[1002000024],"2024-01-01T14:40:00Z":[1002000026],"2024-01-01T18:43:00Z":[1002000033],"2024-01-01T21:33:00Z":[1002000038],"2024-01-02T03:47:00Z":[1002000043],"2024-01-02T09:05:00Z":[1002000044],"2024-01-02T10:04:00Z":[1002000052]}}');


--
-- Name: messages messages_website_id_id; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.messages
    ADD CONSTRAINT messages_website_id_id PRIMARY KEY (website_id, id);


--
-- Name: orders orders_website_id_id; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.orders
    ADD CONSTRAINT orders_website_id_id PRIMARY KEY (website_id, id);


--
-- Name: sync_state sync_state_website_id_resource; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_state
    ADD CONSTRAINT sync_state_website_id_resource PRIMARY KEY (website_id, resource);


--
-- Name: messages_order_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX messages_order_id ON public.messages USING btree (order_id);


--
-- Name: messages_website_id_date_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX messages_website_id_date_created ON public.messages USING btree (website_id, date_created);


--
-- Name: messages_website_id_message_type; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX messages_website_id_message_type ON public.messages USING btree (website_id, message_type, date_created);


--
-- Name: orders_message_id; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX orders_message_id ON public.orders USING btree (message_id);


--
-- Name: orders_website_id_currency; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX orders_website_id_currency ON public.orders USING btree (website_id, currency, date_created);


--
-- Name: orders_website_id_date_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX orders_website_id_date_created ON public.orders USING btree (website_id, date_created);


--
-- Name: orders_website_id_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX orders_website_id_status ON public.orders USING btree (website_id, status, date_created);


--
-- PostgreSQL database dump complete
--


