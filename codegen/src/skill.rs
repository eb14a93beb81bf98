//! The items of `skill!`: constants and the `Params` / `Returns` types.

use crate::emit;
use crate::issue::Place;
use crate::tools::Output;
use crate::types::{Names, TypeSpace};
use quote::quote;
use toolsmith_manifest::dialect::skill::Skill;

/// The generated code of a skill.
pub fn skill(skill: &Skill) -> Output {
    let mut names = Names::default();
    let mut issues = Vec::new();
    let mut tokens = emit::prelude();
    tokens.extend({
        let name = &skill.name;
        let description = &skill.description;
        let allowed = &skill.allowed_tools;
        let body = &skill.body;
        quote! {
            /// The skill's `name`.
            #[allow(dead_code)]
            pub const NAME: &str = #name;
            /// The skill's `description`.
            #[allow(dead_code)]
            pub const DESCRIPTION: &str = #description;
            /// `allowed-tools`, as a token list.
            #[allow(dead_code)]
            pub const ALLOWED_TOOLS: &[&str] = &[#(#allowed),*];
            /// The markdown after the frontmatter.
            #[allow(dead_code)]
            pub const BODY: &str = #body;
        }
    });
    for (part, (type_name, schema)) in [("Params", &skill.params), ("Returns", &skill.returns)]
        .into_iter()
        .enumerate()
    {
        let Some(schema) = schema else { continue };
        if !names.claim(
            type_name,
            type_name,
            Place::Schema {
                tool: part,
                pointer: String::new(),
            },
            &mut issues,
        ) {
            continue;
        }
        let mut space = TypeSpace::new(part, schema, &mut names, &mut issues);
        space.root_struct(type_name, schema, "", None);
        let items = std::mem::take(&mut space.items);
        for item in &items {
            tokens.extend(emit::item(item, &items, false));
        }
    }
    Output { tokens, issues }
}
