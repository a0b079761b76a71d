-- A database of schema version 1, made by the released ordermsg sync --db of
-- commit 3406b85 (cmd/ordermsg, SQLite only) from its own fake: ordermsg serve
-- --websites 1 --orders 7 --messages 9 --seed 25, then ordermsg sync --db v1.db
-- --count 4; dumped with sqlite3 v1.db .dump. Never edit it: it stands for the
-- databases that version left behind.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE orders (
	id            INTEGER PRIMARY KEY,
	website_id    INTEGER NOT NULL,
	date_created  TEXT NOT NULL, -- UTC, RFC 3339
	status        TEXT NOT NULL,
	order_type    TEXT NOT NULL,
	currency      TEXT NOT NULL,
	total         INTEGER NOT NULL,
	amount_paid   INTEGER NOT NULL,
	message_id    INTEGER,
	user_id       INTEGER,
	portal_id     INTEGER,
	promo_code_id INTEGER,
	json          TEXT NOT NULL
);
INSERT INTO orders VALUES(1001000020,1001,'2024-01-01T13:23:00Z','new','catalog','usd',89326,0,1001000019,1001000004,NULL,1001000024,'{"object":"order","id":1001000020,"amount_paid":0,"content_catalog":9,"currency":"usd","date_created":"2024-01-01T13:23:00+00:00","is_pay_later":true,"message":1001000019,"order_type":"catalog","portal":0,"pricing":{"object":"order_pricing","shipping":0,"shipping_discount":0,"subtotal":91900,"subtotal_discount":9190,"tax":6616,"total":89326},"promo_code":1001000024,"shipping_tax_percentage":0,"status":"new","user":1001000004}');
INSERT INTO orders VALUES(1001000030,1001,'2024-01-01T20:57:00Z','new','catalog','eur',20928,0,1001000028,1001000013,NULL,1001000033,'{"object":"order","id":1001000030,"amount_paid":0,"content_catalog":9,"currency":"eur","date_created":"2024-01-01T20:57:00+00:00","is_pay_later":true,"message":1001000028,"order_type":"catalog","portal":0,"pricing":{"object":"order_pricing","shipping":1100,"shipping_discount":0,"subtotal":20400,"subtotal_discount":2040,"tax":1468,"total":20928},"promo_code":1001000033,"shipping_tax_percentage":0.2,"status":"new","user":1001000013}');
INSERT INTO orders VALUES(1001000038,1001,'2024-01-02T02:09:00Z','new','catalog','usd',58536,58536,1001000037,1001000006,NULL,NULL,'{"object":"order","id":1001000038,"amount_paid":58536,"content_catalog":8,"currency":"usd","date_created":"2024-01-02T02:09:00+00:00","is_pay_later":false,"message":1001000037,"order_type":"catalog","portal":0,"pricing":{"object":"order_pricing","shipping":0,"shipping_discount":0,"subtotal":54200,"subtotal_discount":0,"tax":4336,"total":58536},"promo_code":null,"shipping_tax_percentage":0,"status":"new","user":1001000006}');
INSERT INTO orders VALUES(1001000043,1001,'2024-01-02T08:27:00Z','new','ecommerce','gbp',9850,9850,1001000042,1001000006,NULL,1001000050,'{"object":"order","id":1001000043,"amount_paid":9850,"content_catalog":9,"currency":"gbp","date_created":"2024-01-02T08:27:00+00:00","is_pay_later":false,"message":1001000042,"order_type":"ecommerce","portal":0,"pricing":{"object":"order_pricing","shipping":1200,"shipping_discount":0,"subtotal":8900,"subtotal_discount":890,"tax":640,"total":9850},"promo_code":1001000050,"shipping_tax_percentage":0.2,"status":"new","user":1001000006}');
INSERT INTO orders VALUES(1001000060,1001,'2024-01-02T16:08:00Z','new','ecommerce','gbp',56052,56052,1001000059,1001000012,1001000001,NULL,'{"object":"order","id":1001000060,"amount_paid":56052,"content_catalog":8,"currency":"gbp","date_created":"2024-01-02T16:08:00+00:00","is_pay_later":false,"message":1001000059,"order_type":"ecommerce","portal":1001000001,"pricing":{"object":"order_pricing","shipping":0,"shipping_discount":0,"subtotal":51900,"subtotal_discount":0,"tax":4152,"total":56052},"promo_code":null,"shipping_tax_percentage":0,"status":"new","user":1001000012}');
INSERT INTO orders VALUES(1001000070,1001,'2024-01-02T23:00:00Z','new','ecommerce','gbp',27000,27000,1001000069,1001000011,1001000001,NULL,'{"object":"order","id":1001000070,"amount_paid":27000,"content_catalog":9,"currency":"gbp","date_created":"2024-01-02T23:00:00+00:00","is_pay_later":false,"message":1001000069,"order_type":"ecommerce","portal":1001000001,"pricing":{"object":"order_pricing","shipping":0,"shipping_discount":0,"subtotal":25000,"subtotal_discount":0,"tax":2000,"total":27000},"promo_code":null,"shipping_tax_percentage":0,"status":"new","user":1001000011}');
INSERT INTO orders VALUES(1001000074,1001,'2024-01-03T03:10:00Z','new','ecommerce','usd',14640,14640,1001000073,NULL,NULL,NULL,'{"object":"order","id":1001000074,"amount_paid":14640,"content_catalog":8,"currency":"usd","date_created":"2024-01-03T03:10:00+00:00","is_pay_later":false,"message":1001000073,"order_type":"ecommerce","portal":0,"pricing":{"object":"order_pricing","shipping":600,"shipping_discount":0,"subtotal":13000,"subtotal_discount":0,"tax":1040,"total":14640},"promo_code":null,"shipping_tax_percentage":0.2,"status":"new","user":null}');
CREATE TABLE messages (
	id            INTEGER PRIMARY KEY,
	website_id    INTEGER NOT NULL,
	date_created  TEXT NOT NULL,
	message_type  TEXT NOT NULL,
	order_id      INTEGER,
	form_id       INTEGER,
	user_id       INTEGER,
	portal_id     INTEGER,
	file_id       INTEGER,
	json          TEXT NOT NULL
);
INSERT INTO messages VALUES(1001000019,1001,'2024-01-01T13:23:00Z','online_order',1001000020,1001000016,1001000004,NULL,NULL,'{"object":"message","id":1001000019,"date_created":"2024-01-01T13:23:00+00:00","event_submission":0,"file":0,"form":1001000016,"message_tracking_number":"MSG-1001000019","message_type":"online_order","online_proof":0,"order":1001000020,"portal":0,"user":1001000004}');
INSERT INTO messages VALUES(1001000027,1001,'2024-01-01T18:10:00Z','general_contact',NULL,1001000018,NULL,NULL,NULL,'{"object":"message","id":1001000027,"date_created":"2024-01-01T18:10:00+00:00","event_submission":0,"file":0,"form":1001000018,"message_tracking_number":"MSG-1001000027","message_type":"general_contact","online_proof":0,"order":0,"portal":0,"user":0}');
INSERT INTO messages VALUES(1001000028,1001,'2024-01-01T20:57:00Z','online_order',1001000030,1001000016,1001000013,NULL,NULL,'{"object":"message","id":1001000028,"date_created":"2024-01-01T20:57:00+00:00","event_submission":0,"file":0,"form":1001000016,"message_tracking_number":"MSG-1001000028","message_type":"online_order","online_proof":1001000029,"order":1001000030,"portal":0,"user":1001000013}');
INSERT INTO messages VALUES(1001000037,1001,'2024-01-02T02:09:00Z','online_order',1001000038,1001000016,1001000006,NULL,NULL,'{"object":"message","id":1001000037,"date_created":"2024-01-02T02:09:00+00:00","event_submission":0,"file":0,"form":1001000016,"message_tracking_number":"MSG-1001000037","message_type":"online_order","online_proof":0,"order":1001000038,"portal":0,"user":1001000006}');
INSERT INTO messages VALUES(1001000042,1001,'2024-01-02T08:27:00Z','online_order',1001000043,1001000016,1001000006,NULL,NULL,'{"object":"message","id":1001000042,"date_created":"2024-01-02T08:27:00+00:00","event_submission":0,"file":0,"form":1001000016,"message_tracking_number":"MSG-1001000042","message_type":"online_order","online_proof":0,"order":1001000043,"portal":0,"user":1001000006}');
INSERT INTO messages VALUES(1001000056,1001,'2024-01-02T11:45:00Z','event_management',NULL,1001000017,1001000013,NULL,NULL,'{"object":"message","id":1001000056,"date_created":"2024-01-02T11:45:00+00:00","event_submission":1001000057,"file":0,"form":1001000017,"message_tracking_number":"MSG-1001000056","message_type":"event_management","online_proof":1001000058,"order":0,"portal":0,"user":1001000013}');
INSERT INTO messages VALUES(1001000059,1001,'2024-01-02T16:08:00Z','online_order',1001000060,1001000016,1001000012,1001000001,NULL,'{"object":"message","id":1001000059,"date_created":"2024-01-02T16:08:00+00:00","event_submission":0,"file":0,"form":1001000016,"message_tracking_number":"MSG-1001000059","message_type":"online_order","online_proof":0,"order":1001000060,"portal":1001000001,"user":1001000012}');
INSERT INTO messages VALUES(1001000069,1001,'2024-01-02T23:00:00Z','online_order',1001000070,1001000016,1001000011,1001000001,NULL,'{"object":"message","id":1001000069,"date_created":"2024-01-02T23:00:00+00:00","event_submission":0,"file":0,"form":1001000016,"message_tracking_number":"MSG-1001000069","message_type":"online_order","online_proof":0,"order":1001000070,"portal":1001000001,"user":1001000011}');
INSERT INTO messages VALUES(1001000073,1001,'2024-01-03T03:10:00Z','online_order',1001000074,1001000016,NULL,NULL,NULL,'{"object":"message","id":1001000073,"date_created":"2024-01-03T03:10:00+00:00","event_submission":0,"file":0,"form":1001000016,"message_tracking_number":"MSG-1001000073","message_type":"online_order","online_proof":0,"order":1001000074,"portal":0,"user":0}');
CREATE TABLE sync_state (
	resource    TEXT PRIMARY KEY, -- "orders" or "messages"
	website_id  INTEGER NOT NULL,
	checkpoint  TEXT NOT NULL     -- an ordermsg.Checkpoint as JSON
);
INSERT INTO sync_state VALUES('orders',1001,'{"v":2,"created":"2024-01-03T03:10:00Z","seen":{"2024-01-01T13:23:00Z":[1001000020],"2024-01-01T20:57:00Z":[1001000030],"2024-01-02T02:09:00Z":[1001000038],"2024-01-02T08:27:00Z":[1001000043],"2024-01-02T16:08:00Z":[1001000060],"2024-01-02T23:00:00Z":[1001000070],"2024-01-03T03:10:00Z":[1001000074]}}');
INSERT INTO sync_state VALUES('messages',1001,'{"v":2,"created":"2024-01-03T03:10:00Z","seen":{"2024-01-01T13:23:00Z":[1001000019],"2024-01-01T18:10:00Z":[1001000027],"2024-01-01T20:57:00Z":[1001000028],"2024-01-02T02:09:00Z":[1001000037],"2024-01-02T08:27:00Z":[1001000042],"2024-01-02T11:45:00Z":[1001000056],"2024-01-02T16:08:00Z":[1001000059],"2024-01-02T23:00:00Z":[1001000069],"2024-01-03T03:10:00Z":[1001000073]}}');
CREATE INDEX orders_date_created ON orders(date_created);
CREATE INDEX messages_date_created ON messages(date_created);
COMMIT;
