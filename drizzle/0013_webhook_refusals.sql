ALTER TABLE "payment_notifications" ADD COLUMN "body_prefix" text;--> statement-breakpoint
ALTER TABLE "payment_notifications" ADD COLUMN "remote_address" text;--> statement-breakpoint
CREATE INDEX "payment_notifications_refused_idx" ON "payment_notifications" USING btree ("signature_valid","received_at");