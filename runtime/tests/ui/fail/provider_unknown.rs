mod tools {
    toolsmith::tools!("tests/ui/data/quiet/tools.json", providers = [openai, gemni]);
}

fn main() {}
