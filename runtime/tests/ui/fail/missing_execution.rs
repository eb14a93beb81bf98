mod tools {
    toolsmith::tools!("tests/ui/data/missing-execution/tools.json");
}

fn main() {
    let _ = tools::definitions();
}
