CREATE INDEX "batch_call_contacts_order_idx" ON "batch_call_contacts" USING btree ("batch_call_id","position");
