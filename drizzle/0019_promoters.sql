CREATE TABLE "promoter_group_members" (
	"group_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promoter_group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "promoter_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"lead_user_id" uuid,
	"commission_per_ticket" integer,
	"event_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"ticket_type_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promoter_settlements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"note" text,
	"recorded_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billings" DROP CONSTRAINT "billings_provider_check";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_payment_method_check";--> statement-breakpoint
ALTER TABLE "membership_invitations" ADD COLUMN "promoter_group_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promoter_user_id" uuid;--> statement-breakpoint
ALTER TABLE "promoter_group_members" ADD CONSTRAINT "promoter_group_members_group_id_promoter_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."promoter_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promoter_group_members" ADD CONSTRAINT "promoter_group_members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promoter_group_members" ADD CONSTRAINT "promoter_group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promoter_groups" ADD CONSTRAINT "promoter_groups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promoter_groups" ADD CONSTRAINT "promoter_groups_lead_user_id_users_id_fk" FOREIGN KEY ("lead_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promoter_settlements" ADD CONSTRAINT "promoter_settlements_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promoter_settlements" ADD CONSTRAINT "promoter_settlements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promoter_settlements" ADD CONSTRAINT "promoter_settlements_recorded_by_user_id_users_id_fk" FOREIGN KEY ("recorded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promoter_group_members_person_key" ON "promoter_group_members" USING btree ("organization_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "promoter_groups_name_key" ON "promoter_groups" USING btree ("organization_id",lower("name"));--> statement-breakpoint
CREATE INDEX "promoter_settlements_person_idx" ON "promoter_settlements" USING btree ("organization_id","user_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_promoter_user_id_users_id_fk" FOREIGN KEY ("promoter_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_promoter_idx" ON "orders" USING btree ("promoter_user_id","event_id") WHERE promoter_user_id is not null;--> statement-breakpoint
ALTER TABLE "billings" ADD CONSTRAINT "billings_provider_check" CHECK ("billings"."provider" in ('sandbox','mercadopago','bank_transfer','free','promoter'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_method_check" CHECK ("orders"."payment_method" in ('MERCADO_PAGO','BANK_TRANSFER','FREE','PROMOTER'));