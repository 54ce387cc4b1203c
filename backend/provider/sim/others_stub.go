package sim

import "net/http"

func (s *Server) geminiRoutes() http.Handler   { return http.NotFoundHandler() }
func (s *Server) aistudioRoutes() http.Handler { return http.NotFoundHandler() }
func (s *Server) grokRoutes() http.Handler     { return http.NotFoundHandler() }
func (s *Server) claudeRoutes() http.Handler   { return http.NotFoundHandler() }
func (s *Server) kimiRoutes() http.Handler     { return http.NotFoundHandler() }
func (s *Server) deepseekRoutes() http.Handler { return http.NotFoundHandler() }
