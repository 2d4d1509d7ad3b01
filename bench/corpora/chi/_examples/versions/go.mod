module versions

go 1.16

require (
	github.com/go-chi/chi/v5 v5.1.0
	github.com/go-chi/render v1.0.3
)

require github.com/ajg/form v1.5.1 // indirect
