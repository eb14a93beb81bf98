mod skill {
    toolsmith::skill!("../fixtures/skill/valid/basic/pdf-tools/SKILL.md", profile = claude_cod);
}

fn main() {}
