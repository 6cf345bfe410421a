DROP INDEX "payment_refunds_billing_key";--> statement-breakpoint
CREATE UNIQUE INDEX "payment_refunds_billing_payment_key" ON "payment_refunds" USING btree ("billing_id","provider_payment_id");