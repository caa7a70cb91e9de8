"""Human review: review items, verdict parsing, and the xlsx and Google Sheets backends."""
