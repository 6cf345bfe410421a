CREATE TABLE "arca_tickets" (
	"environment" text NOT NULL,
	"cuit" text NOT NULL,
	"service" text NOT NULL,
	"token" text NOT NULL,
	"sign" text NOT NULL,
	"generated_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "arca_tickets_environment_cuit_service_pk" PRIMARY KEY("environment","cuit","service")
);
--> statement-breakpoint
CREATE TABLE "billing_tax_details" (
	"billing_id" uuid PRIMARY KEY NOT NULL,
	"cuit" text NOT NULL,
	"iva_condition" integer NOT NULL,
	"legal_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_tax_details_cuit_check" CHECK ("billing_tax_details"."cuit" ~ '^[0-9]{11}$')
);
--> statement-breakpoint
CREATE TABLE "invoice_sequences" (
	"environment" text NOT NULL,
	"issuer_cuit" text NOT NULL,
	"point_of_sale" integer NOT NULL,
	"voucher_type" integer NOT NULL,
	"holder" text,
	"held_until" timestamp with time zone,
	CONSTRAINT "invoice_sequences_environment_issuer_cuit_point_of_sale_voucher_type_pk" PRIMARY KEY("environment","issuer_cuit","point_of_sale","voucher_type")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid NOT NULL,
	"billing_id" uuid NOT NULL,
	"invoice_id" uuid,
	"environment" text NOT NULL,
	"issuer_cuit" text NOT NULL,
	"point_of_sale" integer NOT NULL,
	"letter" text NOT NULL,
	"voucher_type" integer NOT NULL,
	"number" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"total" integer NOT NULL,
	"net" integer NOT NULL,
	"vat" integer NOT NULL,
	"receiver_doc_type" integer NOT NULL,
	"receiver_doc_number" text NOT NULL,
	"receiver_iva_condition" integer NOT NULL,
	"voucher_date" text,
	"cae" text,
	"cae_due_date" text,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"observations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"authorised_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" in ('invoice','credit_note')),
	CONSTRAINT "invoices_letter_check" CHECK ("invoices"."letter" in ('A','B','C')),
	CONSTRAINT "invoices_status_check" CHECK ("invoices"."status" in ('pending','sending','authorised','rejected')),
	CONSTRAINT "invoices_amounts_check" CHECK ("invoices"."total" > 0 and "invoices"."net" >= 0 and "invoices"."vat" >= 0 and "invoices"."net" + "invoices"."vat" = "invoices"."total")
);
--> statement-breakpoint
ALTER TABLE "billing_tax_details" ADD CONSTRAINT "billing_tax_details_billing_id_billings_id_fk" FOREIGN KEY ("billing_id") REFERENCES "public"."billings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_billing_id_billings_id_fk" FOREIGN KEY ("billing_id") REFERENCES "public"."billings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_billing_kind_key" ON "invoices" USING btree ("billing_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices" USING btree ("environment","issuer_cuit","point_of_sale","voucher_type","number") WHERE number is not null;--> statement-breakpoint
CREATE INDEX "invoices_order_idx" ON "invoices" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "invoices_status_idx" ON "invoices" USING btree ("status","created_at");