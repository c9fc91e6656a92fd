output "bucket_name" {
  description = "Name of the bucket"
  value       = terraform_data.bucket.output.name
}

output "website_url" {
  description = "Address the site would be served at"
  value       = local.website_url
}

output "bucket_id" {
  description = "Identifier of the placeholder resource"
  value       = terraform_data.bucket.id
}
