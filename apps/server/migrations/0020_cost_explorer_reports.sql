CREATE TABLE "cost_dashboards" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"data" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cost_report_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid NOT NULL,
	"trigger" text NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'RUNNING' NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "cost_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"report_name" text NOT NULL,
	"aws_account_ids" jsonb NOT NULL,
	"regions" jsonb NOT NULL,
	"emails" jsonb NOT NULL,
	"granularity" text NOT NULL,
	"cost_allocation_tag" text,
	"last_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox_mails" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "cost_dashboards" ADD CONSTRAINT "cost_dashboards_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_report_sends" ADD CONSTRAINT "cost_report_sends_report_id_cost_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."cost_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_reports" ADD CONSTRAINT "cost_reports_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cost_report_sends_report_idx" ON "cost_report_sends" USING btree ("report_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cost_report_sends_claim_idx" ON "cost_report_sends" USING btree ("report_id","trigger","scheduled_for");--> statement-breakpoint
CREATE INDEX "cost_reports_project_idx" ON "cost_reports" USING btree ("project_id");