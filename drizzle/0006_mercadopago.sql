CREATE TABLE "mercadopago_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"mp_user_id" text NOT NULL,
	"access_token_encrypted" text NOT NULL,
	"refresh_token_encrypted" text,
	"public_key" text,
	"live_mode" boolean DEFAULT true NOT NULL,
	"scope" text,
	"expires_at" timestamp with time zone NOT NULL,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"connected_by_user_id" uuid,
	"refreshed_at" timestamp with time zone,
	"last_refresh_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mercadopago_preferences" (
	"billing_id" uuid PRIMARY KEY NOT NULL,
	"preference_id" text NOT NULL,
	"init_point" text NOT NULL,
	"mp_user_id" text,
	"marketplace_fee" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "provider_refund_id" text;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "processed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "mercadopago_accounts" ADD CONSTRAINT "mercadopago_accounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mercadopago_accounts" ADD CONSTRAINT "mercadopago_accounts_connected_by_user_id_users_id_fk" FOREIGN KEY ("connected_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mercadopago_preferences" ADD CONSTRAINT "mercadopago_preferences_billing_id_billings_id_fk" FOREIGN KEY ("billing_id") REFERENCES "public"."billings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mercadopago_accounts_organization_key" ON "mercadopago_accounts" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "mercadopago_accounts_user_idx" ON "mercadopago_accounts" USING btree ("mp_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mercadopago_preferences_preference_key" ON "mercadopago_preferences" USING btree ("preference_id");