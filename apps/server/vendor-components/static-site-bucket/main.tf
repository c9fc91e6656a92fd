terraform {
  required_version = ">= 1.4"
}

locals {
  website_url = "http://${var.bucket_name}.s3-website.${var.region}.amazonaws.com"
}

# A stand-in for the bucket: keeps the settings in state and replaces itself when the name changes.
resource "terraform_data" "bucket" {
  input = {
    name           = var.bucket_name
    region         = var.region
    index_document = var.index_document
    versioning     = var.versioning
    tags           = var.tags
  }
  triggers_replace = [var.bucket_name, var.region]
}
