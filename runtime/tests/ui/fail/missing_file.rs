mod tools {
    toolsmith::tools!("tests/ui/data/no-such-dir/tools.json");
}

fn main() {
    let _ = tools::definitions();
}
