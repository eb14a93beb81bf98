mod tools {
    toolsmith::tools!("tests/ui/data/flagifboolean/tools.json");
}

fn main() {
    let _ = tools::definitions();
}
