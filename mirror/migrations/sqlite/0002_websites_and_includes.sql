-- Step 2: any number of websites in one database, records keyed by website,
-- with the data of their includes. The records of step 1 stay (without their
-- includes until the next run reads them again, which it does because the
-- checkpoints are dropped). Released: never change it.
ALTER TABLE orders RENAME TO orders_v1;
ALTER TABLE messages RENAME TO messages_v1;
DROP TABLE sync_state;

CREATE TABLE mirror_schema (version INTEGER NOT NULL);
CREATE TABLE orders (
	website_id    BIGINT NOT NULL,
	id            BIGINT NOT NULL,
	date_created  TEXT NOT NULL,
	status        TEXT NOT NULL,
	order_type    TEXT NOT NULL,
	currency      TEXT NOT NULL,
	total         BIGINT NOT NULL,
	amount_paid   BIGINT NOT NULL,
	message_id    BIGINT,
	user_id       BIGINT,
	portal_id     BIGINT,
	promo_code_id BIGINT,
	promo_code    TEXT,
	json          TEXT NOT NULL,
	CONSTRAINT orders_website_id_id PRIMARY KEY (website_id, id)
);
CREATE INDEX orders_website_id_date_created ON orders (website_id, date_created);
CREATE INDEX orders_website_id_status ON orders (website_id, status, date_created);
CREATE INDEX orders_website_id_currency ON orders (website_id, currency, date_created);
CREATE INDEX orders_message_id ON orders (message_id);
CREATE TABLE messages (
	website_id    BIGINT NOT NULL,
	id            BIGINT NOT NULL,
	date_created  TEXT NOT NULL,
	message_type  TEXT NOT NULL,
	order_id      BIGINT,
	form_id       BIGINT,
	user_id       BIGINT,
	portal_id     BIGINT,
	file_id       BIGINT,
	json          TEXT NOT NULL,
	CONSTRAINT messages_website_id_id PRIMARY KEY (website_id, id)
);
CREATE INDEX messages_website_id_date_created ON messages (website_id, date_created);
CREATE INDEX messages_website_id_message_type ON messages (website_id, message_type, date_created);
CREATE INDEX messages_order_id ON messages (order_id);
CREATE TABLE sync_state (
	website_id  BIGINT NOT NULL,
	resource    TEXT NOT NULL,
	checkpoint  TEXT NOT NULL,
	CONSTRAINT sync_state_website_id_resource PRIMARY KEY (website_id, resource)
);
INSERT INTO orders (website_id, id, date_created, status, order_type, currency, total, amount_paid,
	message_id, user_id, portal_id, promo_code_id, json)
SELECT website_id, id, date_created, status, order_type, currency, total, amount_paid,
	message_id, user_id, portal_id, promo_code_id, CAST(json AS TEXT) FROM orders_v1;
INSERT INTO messages (website_id, id, date_created, message_type, order_id, form_id, user_id, portal_id, file_id, json)
SELECT website_id, id, date_created, message_type, order_id, form_id, user_id, portal_id, file_id, CAST(json AS TEXT) FROM messages_v1;
DROP TABLE orders_v1;
DROP TABLE messages_v1;
