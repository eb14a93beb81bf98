mod skill {
    toolsmith::skill!("tests/ui/data/frontmatter/SKILL.md");
}

fn main() {
    let _ = skill::NAME;
}
