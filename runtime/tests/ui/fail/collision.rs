mod tools {
    toolsmith::tools!("tests/ui/data/collision/tools.json");
}

fn main() {
    let _ = tools::definitions();
}
