mod tools {
    toolsmith::tools!("tests/ui/data/syntax/tools.json");
}

fn main() {
    let _ = tools::definitions();
}
