//! A small stdio MCP server (rmcp) for `cli/tests/mcp_live.rs`: it publishes
//! its tools in two pages, the second holding a deliberately broken tool (a
//! name with a space, an `inputSchema` of `type: "array"`, a `required` name
//! that is not a property). With `--error` it answers `tools/list` with a
//! JSON-RPC error instead.

use rmcp::model::{
    Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;
use std::sync::Arc;

struct Broken {
    error: bool,
}

fn schema(value: serde_json::Value) -> Arc<serde_json::Map<String, serde_json::Value>> {
    Arc::new(value.as_object().cloned().unwrap_or_default())
}

impl ServerHandler for Broken {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("broken", "0.0.0"))
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        if self.error {
            return Err(ErrorData::internal_error("the tool registry is down", None));
        }
        let second_page = request.and_then(|r| r.cursor).is_some();
        if !second_page {
            let ok = Tool::new(
                "echo",
                "Echo a message.",
                schema(
                    json!({"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}),
                ),
            );
            let mut page = ListToolsResult::with_all_items(vec![ok]);
            page.next_cursor = Some("page-2".into());
            return Ok(page);
        }
        let broken = Tool::new(
            "read file",
            "Read a file.",
            schema(
                json!({"type": "array", "properties": {"path": {"type": "string"}}, "required": ["file"]}),
            ),
        );
        Ok(ListToolsResult::with_all_items(vec![broken]))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let error = std::env::args().any(|a| a == "--error");
    let Ok(service) = Broken { error }.serve(rmcp::transport::stdio()).await else {
        std::process::exit(1);
    };
    let _ = service.waiting().await;
}
