// Starts Swagger UI on /docs from the page's own files: no inline script (the page's CSP
// allows none) and no validator badge (it would call a public validation service).
"use strict";
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
    layout: "BaseLayout",
    deepLinking: true,
    validatorUrl: null,
    persistAuthorization: false,
  });
});
