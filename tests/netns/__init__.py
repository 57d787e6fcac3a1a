"""Tables with friends across a test internet of home routers built from Linux network
namespaces (issue 12): see README.md here."""
