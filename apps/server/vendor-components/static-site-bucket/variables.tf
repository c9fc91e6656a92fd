variable "bucket_name" {
  type        = string
  description = "Name of the bucket that holds the site"
}

variable "region" {
  type        = string
  description = "AWS region of the bucket"
  default     = "us-east-1"
}

variable "index_document" {
  type        = string
  description = "Page served for the site root"
  default     = "index.html"
}

variable "versioning" {
  type        = bool
  description = "Keep old versions of objects"
  default     = false
}

variable "tags" {
  type        = map(string)
  description = "Tags put on the bucket"
  default     = {}
}
