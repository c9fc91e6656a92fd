CREATE TABLE "deployment_logs" (
	"deployment_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "deployment_logs_deployment_id_seq_pk" PRIMARY KEY("deployment_id","seq")
);
--> statement-breakpoint
CREATE TABLE "deployment_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stage_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"status" text DEFAULT 'CREATING' NOT NULL,
	"plan_file" text,
	"summary" jsonb,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"resources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"worker_id" text,
	"heartbeat_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stage_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'DEPLOY_QUEUED' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"plan_id" uuid,
	"resource_name" text,
	"resources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"logs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"started_by" uuid,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"worker_id" text,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "deployment_logs" ADD CONSTRAINT "deployment_logs_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_plans" ADD CONSTRAINT "deployment_plans_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_plans_stage_idx" ON "deployment_plans" USING btree ("stage_id");--> statement-breakpoint
CREATE INDEX "deployments_stage_created_idx" ON "deployments" USING btree ("stage_id","created_at");--> statement-breakpoint
CREATE INDEX "deployments_project_created_idx" ON "deployments" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deployments_one_active_per_stage" ON "deployments" USING btree ("stage_id") WHERE "deployments"."active";