CREATE TABLE "microservices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"registry" text,
	"image_repository" text NOT NULL,
	"readme" text DEFAULT '' NOT NULL,
	"schema" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_deployments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"cluster_id" text NOT NULL,
	"namespace" text NOT NULL,
	"service_name" text NOT NULL,
	"is_public" boolean NOT NULL,
	"status" text NOT NULL,
	"version" text NOT NULL,
	"previous_version" text,
	"commit" text,
	"error" text,
	"description" text DEFAULT '' NOT NULL,
	"image_repository" text NOT NULL,
	"registry" text,
	"initiator_kind" text NOT NULL,
	"initiator_user_id" uuid,
	"initiator_email" text,
	"pipeline_id" text,
	"build_id" text,
	"configuration_sealed" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "microservices" ADD CONSTRAINT "microservices_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "microservices" ADD CONSTRAINT "microservices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_deployments" ADD CONSTRAINT "service_deployments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_deployments" ADD CONSTRAINT "service_deployments_initiator_user_id_users_id_fk" FOREIGN KEY ("initiator_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "microservices_project_name_key" ON "microservices" USING btree ("project_id","name");--> statement-breakpoint
CREATE INDEX "service_deployments_service_idx" ON "service_deployments" USING btree ("project_id","service_name","started_at");--> statement-breakpoint
CREATE INDEX "service_deployments_cluster_idx" ON "service_deployments" USING btree ("project_id","cluster_id","namespace","service_name","started_at");