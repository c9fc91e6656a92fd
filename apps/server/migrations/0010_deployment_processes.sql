ALTER TABLE "deployment_plans" ADD COLUMN "process_id" integer;--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN "process_id" integer;